package io.github.sockjsstomp.client.login;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.http.NameValuePair;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.entity.UrlEncodedFormEntity;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.message.BasicNameValuePair;

/**
 * An HTTP form login as a browser does it, through the virtual user's own cookie store: GET the login page,
 * POST its form (the hidden inputs it carries, the CSRF token among them, plus user name and password), and
 * read the answer with Spring Security's conventions: a redirect elsewhere is a success; a redirect to
 * {@code ?error} or back to the login page, or the login form answered again, is a refusal. Both requests are
 * steps labelled {@value #LABEL}.
 */
public final class FormLogin {

    public static final String LABEL = "login";

    /** The form's field names; Spring Security's are {@link #SPRING}. */
    public record Fields(String username, String password, String csrf) {

        public static final Fields SPRING = new Fields("username", "password", "_csrf");

        public Fields {
            if (username == null || username.isBlank() || password == null || password.isBlank()) {
                throw new IllegalArgumentException("username and password field names are required");
            }
            csrf = csrf == null ? "" : csrf.strip();
        }
    }

    private final CloseableHttpClient client;
    private final BasicCookieStore cookies;
    private final RequestConfig follow;
    private final RequestConfig noFollow;

    public FormLogin(CloseableHttpClient client, BasicCookieStore cookies, RequestConfig requestConfig) {
        if (client == null || cookies == null || requestConfig == null) {
            throw new IllegalArgumentException("client, cookies and requestConfig are required");
        }
        this.client = client;
        this.cookies = cookies;
        this.follow = HttpExchange.config(requestConfig, true);
        this.noFollow = HttpExchange.config(requestConfig, false);
    }

    /** @param timeoutMillis connect, pool and read timeout of each request */
    public FormLogin(CloseableHttpClient client, BasicCookieStore cookies, int timeoutMillis) {
        this(client, cookies, HttpExchange.timeouts(timeoutMillis));
    }

    /** Logs in with Spring Security's field names. */
    public List<ConnectStepResult> login(URI loginPage, String user, String password) {
        return login(loginPage, user, password, Fields.SPRING);
    }

    /** The page's GET, then the form's POST unless the GET failed; the last step says whether it worked. */
    public List<ConnectStepResult> login(URI loginPage, String user, String password, Fields fields) {
        List<ConnectStepResult> steps = new ArrayList<>(2);
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        HttpExchange.Response page;
        try {
            page = HttpExchange.execute(client, new HttpGet(loginPage), follow, cookies);
        } catch (IOException | RuntimeException e) {
            Failure failure = Failure.of(e);
            steps.add(ConnectStepResult.failure(
                    LABEL,
                    failure.code(),
                    "GET login page " + loginPage + ": " + failure.message(),
                    startMillis,
                    startNanos));
            return steps;
        }
        if (page.status() / 100 != 2) {
            steps.add(new ConnectStepResult(
                    LABEL,
                    false,
                    Integer.toString(page.status()),
                    "GET login page " + loginPage + " answered " + page.statusLine(),
                    startMillis,
                    System.nanoTime() - startNanos,
                    page.bytes(),
                    page.stepBody()));
            return steps;
        }
        steps.add(ConnectStepResult.success(
                LABEL,
                Integer.toString(page.status()),
                "GET login page " + page.uri(),
                startMillis,
                startNanos,
                page.bytes(),
                page.stepBody()));
        steps.add(post(page, user, password, fields));
        return steps;
    }

    private ConnectStepResult post(HttpExchange.Response page, String user, String password, Fields fields) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        HtmlTags.Form form = HtmlTags.firstPostForm(page.body());
        URI action = action(page.uri(), form);
        List<NameValuePair> values = hiddenInputs(form == null ? page.body() : form.body());
        boolean hasCsrf = fields.csrf().isEmpty()
                || values.stream().anyMatch(v -> v.getName().equals(fields.csrf()));
        values.add(new BasicNameValuePair(fields.username(), user));
        values.add(new BasicNameValuePair(fields.password(), password));
        HttpPost post = new HttpPost(action);
        post.setEntity(new UrlEncodedFormEntity(values, StandardCharsets.UTF_8));
        String what = "form login as " + user + " at " + action;
        try {
            HttpExchange.Response answer = HttpExchange.execute(client, post, noFollow, cookies);
            String refusal = refusal(answer, action, fields);
            if (refusal == null) {
                String how =
                        answer.isRedirect() ? "redirected to " + shown(action, answer.location()) : answer.statusLine();
                return ConnectStepResult.success(
                        LABEL,
                        Integer.toString(answer.status()),
                        what + ": " + how,
                        startMillis,
                        startNanos,
                        answer.bytes(),
                        answer.stepBody());
            }
            String csrfNote = hasCsrf ? "" : " (the login page had no " + fields.csrf() + " input)";
            return new ConnectStepResult(
                    LABEL,
                    false,
                    Integer.toString(answer.status()),
                    what + " refused: " + refusal + csrfNote,
                    startMillis,
                    System.nanoTime() - startNanos,
                    answer.bytes(),
                    answer.stepBody());
        } catch (IOException | RuntimeException e) {
            Failure failure = Failure.of(e);
            return ConnectStepResult.failure(
                    LABEL, failure.code(), what + ": " + failure.message(), startMillis, startNanos);
        }
    }

    /** Why the answer is a refusal, or null for a success. */
    static String refusal(HttpExchange.Response answer, URI action, Fields fields) {
        if (answer.isRedirect()) {
            String location = answer.location() == null ? "" : answer.location();
            URI target = action.resolve(location);
            boolean error = target.getRawQuery() != null
                    && target.getRawQuery().toLowerCase(Locale.ROOT).contains("error");
            return error || target.getPath().equals(action.getPath())
                    ? "redirected to " + shown(action, location)
                    : null;
        }
        if (answer.status() / 100 == 2) {
            boolean formAgain = HtmlTags.find(answer.body(), "input").stream()
                    .anyMatch(input -> fields.password().equals(input.get("name")));
            return formAgain ? "answered the login form again" : null;
        }
        return "answered " + answer.statusLine();
    }

    /** A redirect's target as a user reads it: path and query when it stays on the login's server. */
    static String shown(URI action, String location) {
        if (location == null) {
            return "(no Location)";
        }
        URI target = action.resolve(location);
        boolean sameServer = target.getHost() != null
                && target.getHost().equalsIgnoreCase(action.getHost())
                && target.getPort() == action.getPort()
                && action.getScheme().equalsIgnoreCase(target.getScheme());
        if (!sameServer) {
            return location;
        }
        return target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
    }

    /** Where the form posts: its action, resolved against the page; the page itself when it has none. */
    static URI action(URI page, HtmlTags.Form form) {
        String action = form == null ? null : form.attributes().get("action");
        return action == null || action.isBlank() ? page : page.resolve(action.strip());
    }

    /** The hidden inputs a browser would submit with the form, the CSRF token among them. */
    static List<NameValuePair> hiddenInputs(String formHtml) {
        List<NameValuePair> values = new ArrayList<>();
        for (Map<String, String> input : HtmlTags.find(formHtml, "input")) {
            String name = input.get("name");
            if (name != null && "hidden".equalsIgnoreCase(input.getOrDefault("type", ""))) {
                values.add(new BasicNameValuePair(name, input.getOrDefault("value", "")));
            }
        }
        return values;
    }

    @Override
    public String toString() {
        return "FormLogin[" + cookies.getCookies().size() + " cookies]";
    }
}
