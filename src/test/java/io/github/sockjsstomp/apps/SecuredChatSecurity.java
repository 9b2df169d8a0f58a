package io.github.sockjsstomp.apps;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/** The HTTP side of {@link SecuredChatApp}: form login, CSRF, users, bearer tokens. */
@Configuration
@EnableWebSecurity
class SecuredChatSecurity {

    static final String TOKEN_PREFIX = "token-";

    @Bean
    InMemoryUserDetailsManager users(@Value("${chat.range-users}") int rangeUsers) {
        List<UserDetails> users = new ArrayList<>();
        users.add(user("alice", "alice-pass"));
        users.add(user("bob", "bob-pass"));
        for (int n = 1; n <= rangeUsers; n++) {
            users.add(user("user-" + n, "pass-" + n));
        }
        return new InMemoryUserDetailsManager(users);
    }

    private static UserDetails user(String name, String password) {
        // {noop}: thousands of generated users; bcrypt would make each login cost tens of milliseconds.
        return User.withUsername(name)
                .password("{noop}" + password)
                .roles("USER")
                .build();
    }

    @Bean
    BearerTokens bearerTokens(InMemoryUserDetailsManager users) {
        return new BearerTokens(users);
    }

    @Bean
    SecurityFilterChain chatSecurity(
            HttpSecurity http, BearerTokens tokens, @Value("${chat.stomp-auth}") SecuredChatApp.StompAuth stompAuth)
            throws Exception {
        http.authorizeHttpRequests(requests -> {
            requests.requestMatchers("/error").permitAll();
            if (stompAuth == SecuredChatApp.StompAuth.CONNECT_HEADER) {
                requests.requestMatchers(SecuredChatApp.ENDPOINT, SecuredChatApp.ENDPOINT + "/**")
                        .permitAll();
            }
            requests.anyRequest().authenticated();
        });
        http.formLogin(Customizer.withDefaults());
        // As Spring's reference has it for SockJS: its xhr_send POSTs carry no CSRF token (CONNECT does).
        http.csrf(csrf -> csrf.ignoringRequestMatchers(SecuredChatApp.ENDPOINT + "/**"));
        http.addFilterBefore(new BearerTokenFilter(tokens), UsernamePasswordAuthenticationFilter.class);
        return http.build();
    }

    /** {@code token-<user>} is the token of every known user: a stand-in for an OAuth server's tokens. */
    static final class BearerTokens {

        private final InMemoryUserDetailsManager users;

        BearerTokens(InMemoryUserDetailsManager users) {
            this.users = users;
        }

        /** The authenticated user of an {@code Authorization} header value, or null for an unknown token. */
        Authentication authenticate(String authorization) {
            String token = authorization.substring("Bearer ".length()).trim();
            if (!token.startsWith(TOKEN_PREFIX) || !users.userExists(token.substring(TOKEN_PREFIX.length()))) {
                return null;
            }
            UserDetails user = users.loadUserByUsername(token.substring(TOKEN_PREFIX.length()));
            return UsernamePasswordAuthenticationToken.authenticated(user.getUsername(), null, user.getAuthorities());
        }

        static boolean isBearer(String authorization) {
            return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
        }
    }

    /** Authenticates a request that carries {@code Authorization: Bearer <known token>}; 401 for an unknown one. */
    static final class BearerTokenFilter extends OncePerRequestFilter {

        private final BearerTokens tokens;

        BearerTokenFilter(BearerTokens tokens) {
            this.tokens = tokens;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            String authorization = request.getHeader("Authorization");
            if (BearerTokens.isBearer(authorization)) {
                Authentication authentication = tokens.authenticate(authorization);
                if (authentication == null) {
                    response.sendError(HttpServletResponse.SC_UNAUTHORIZED, "Unknown bearer token");
                    return;
                }
                SecurityContext context = SecurityContextHolder.createEmptyContext();
                context.setAuthentication(authentication);
                SecurityContextHolder.setContext(context);
            }
            chain.doFilter(request, response);
        }
    }
}
