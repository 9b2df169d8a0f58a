package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.TimingOptions;

/** Parameter names and defaults: what users see first in JMeter's Java Request panel. */
final class StompParameters {

    static final String SCHEME = "scheme";
    static final String SCHEME_DEFAULT = "http";
    static final String HOST = "host";
    static final String HOST_DEFAULT = "localhost";
    static final String PORT = "port";
    static final String PORT_DEFAULT = "8080";
    static final String ENDPOINT = "endpoint";
    static final String ENDPOINT_DEFAULT = "/ws";
    static final String TRANSPORT = "transport";
    static final String TRANSPORT_DEFAULT = "websocket";
    static final String INDEX_PATH = "indexPath";
    static final String INDEX_PATH_DEFAULT = "/index";
    static final String PULL_PATH = "pullPath";
    static final String PULL_PATH_DEFAULT = "/clientPull";
    static final String LOGIN = "login";
    static final String USERS = "users";
    static final String SESSIONS_PER_THREAD = "sessionsPerThread";
    static final String SESSIONS_PER_THREAD_DEFAULT = "1";
    static final String CONNECTS_PER_SECOND = "connectsPerSecond";
    static final String CONNECTS_PER_SECOND_DEFAULT = "0";
    static final String PASSCODE = "passcode";
    static final String CONNECT_HEADERS = "connectHeaders";
    static final String HEARTBEAT_MILLIS = "heartbeatMillis";
    static final String HEARTBEAT_MILLIS_DEFAULT = "10000";
    static final String CONNECT_TIMEOUT_MILLIS = "connectTimeoutMillis";
    static final String CONNECT_TIMEOUT_MILLIS_DEFAULT = "10000";
    static final String SUBSCRIBE_TO = "subscribeTo";

    static final String DESTINATION = "destination";
    static final String DESTINATION_DEFAULT = "/app/echo";
    static final String PAYLOAD = "payload";
    static final String PAYLOAD_DEFAULT = "{\"id\":\"{{msgId}}\",\"seq\":{{seq}},\"user\":\"{{user}}\",\"text\":\"hello\"}";
    static final String SEND_HEADERS = "sendHeaders";
    static final String MODE = "mode";
    static final String MODE_FIRE_AND_FORGET = "fire-and-forget";
    static final String MODE_AWAIT_REPLY = "await-reply";
    static final String REPLY_TIMEOUT_MILLIS = "replyTimeoutMillis";
    static final String REPLY_TIMEOUT_MILLIS_DEFAULT = "5000";
    static final String REPLIES_PER_MESSAGE = "repliesPerMessage";
    static final String REPLIES_PER_MESSAGE_DEFAULT = "1";
    static final String ID_HEADER = "idHeader";
    static final String ID_HEADER_DEFAULT = TimingOptions.DEFAULT_ID_HEADER;
    static final String REPLY_ID_PATTERN = "replyIdPattern";
    static final String TIMING_LOG = "timingLog";
    static final String TIMING_LOG_DEFAULT = "stomp-timing.csv";

    static final String EXPECT_MESSAGES = "expectMessages";
    static final String EXPECT_MESSAGES_DEFAULT = "1";
    static final String RECEIVE_TIMEOUT_MILLIS = "receiveTimeoutMillis";
    static final String RECEIVE_TIMEOUT_MILLIS_DEFAULT = "10000";
    static final String WINDOW_MILLIS = "windowMillis";
    static final String WINDOW_MILLIS_DEFAULT = "0";
    static final String TRIGGER_DESTINATION = "triggerDestination";
    static final String TRIGGER_PAYLOAD = "triggerPayload";

    /** JMeter properties (-J) that size the objects shared by the whole JVM; read once, on first connect. */
    static final String PROPERTY_PREFIX = "sockjsstomp.";

    /** Set by the connect sampler after each sample: true once all of the thread's sessions are up. */
    static final String ALL_CONNECTED_VARIABLE = "stompAllConnected";

    private StompParameters() {
    }
}
