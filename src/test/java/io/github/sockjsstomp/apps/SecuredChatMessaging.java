package io.github.sockjsstomp.apps;

import java.security.Principal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.annotation.SendToUser;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.messaging.support.MessageHeaderAccessor;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.annotation.web.socket.EnableWebSocketSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.messaging.access.intercept.MessageMatcherDelegatingAuthorizationManager;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/** The STOMP side of {@link SecuredChatApp}: endpoint, broker, message security, bearer on CONNECT, echo. */
@Configuration
@EnableWebSocketMessageBroker
@EnableWebSocketSecurity
// Before Spring Security's own configurer (HIGHEST_PRECEDENCE + 100), so CONNECT has its user when checked.
@Order(Ordered.HIGHEST_PRECEDENCE + 99)
class SecuredChatMessaging implements WebSocketMessageBrokerConfigurer {

    private final boolean sockJs;
    private final SecuredChatSecurity.BearerTokens tokens;

    SecuredChatMessaging(@Value("${chat.sockjs}") boolean sockJs, SecuredChatSecurity.BearerTokens tokens) {
        this.sockJs = sockJs;
        this.tokens = tokens;
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.enableSimpleBroker("/topic", "/queue");
        registry.setApplicationDestinationPrefixes("/app");
    }

    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        if (sockJs) {
            registry.addEndpoint(SecuredChatApp.ENDPOINT).withSockJS();
        } else {
            registry.addEndpoint(SecuredChatApp.ENDPOINT);
        }
    }

    @Override
    public void configureClientInboundChannel(ChannelRegistration registration) {
        registration.interceptors(new BearerOnConnect(tokens));
    }

    /** Every message needs a user: CONNECT gets it from the handshake or from its Authorization header. */
    @Bean
    AuthorizationManager<Message<?>> messageAuthorizationManager(
            MessageMatcherDelegatingAuthorizationManager.Builder messages) {
        return messages.anyMessage().authenticated().build();
    }

    /** Spring Security 6's documented way to turn the CSRF check on CONNECT off: a no-op under this name. */
    @Bean(name = "csrfChannelInterceptor")
    @ConditionalOnProperty(name = "chat.csrf-on-connect", havingValue = "false")
    ChannelInterceptor noCsrfOnConnect() {
        return new ChannelInterceptor() {};
    }

    /** The token interceptor of Spring's reference ("Token Authentication"): CONNECT's Authorization header. */
    static final class BearerOnConnect implements ChannelInterceptor {

        private final SecuredChatSecurity.BearerTokens tokens;

        BearerOnConnect(SecuredChatSecurity.BearerTokens tokens) {
            this.tokens = tokens;
        }

        @Override
        public Message<?> preSend(Message<?> message, MessageChannel channel) {
            StompHeaderAccessor accessor = MessageHeaderAccessor.getAccessor(message, StompHeaderAccessor.class);
            if (accessor != null && StompCommand.CONNECT.equals(accessor.getCommand())) {
                String authorization = accessor.getFirstNativeHeader("Authorization");
                if (SecuredChatSecurity.BearerTokens.isBearer(authorization)) {
                    Authentication user = tokens.authenticate(authorization);
                    if (user == null) {
                        throw new BadCredentialsException("Unknown bearer token");
                    }
                    accessor.setUser(user);
                }
            }
            return message;
        }
    }

    /** What the echo answers: who it answered, and what was sent. */
    public record Echo(String principal, String payload) {}

    @Controller
    static class EchoController {

        @MessageMapping("/echo")
        @SendToUser("/queue/echo")
        public Echo echo(String payload, Principal principal) {
            return new Echo(principal.getName(), payload);
        }
    }
}
