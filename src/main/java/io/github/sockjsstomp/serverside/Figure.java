package io.github.sockjsstomp.serverside;

/**
 * One figure of one poll: a metric of the server-figures file ({@code process_cpu}, {@code heap_used_bytes}, ...)
 * and its value.
 */
public record Figure(String metric, double value) {

    static final String PROCESS_CPU = "process_cpu";
    static final String HEAP_USED_BYTES = "heap_used_bytes";
    static final String GC_PAUSE_MS = "gc_pause_ms";
    static final String SESSIONS = "sessions";
    static final String CONNECTIONS = "connections";
    static final String PUBLISH_PER_S = "publish_per_s";
    static final String DELIVER_PER_S = "deliver_per_s";
    static final String QUEUE_DEPTH = "queue_depth";
    static final String RSS_BYTES = "rss_bytes";
    static final String THREADS = "threads";
    static final String FD_USED = "fd_used";
    static final String SOCKETS_USED = "sockets_used";
    static final String BROKER_MEMORY_BYTES = "broker_memory_bytes";
    static final String ERLANG_PROCESSES = "erlang_processes";
    static final String RUN_QUEUE = "run_queue";
    /** The process's CPU time since it started, user and system, in seconds: its difference is the CPU between. */
    static final String CPU_SECONDS = "cpu_seconds";
    /** The generator's: the run its rows belong to (the timing log's run id), sessions it held, messages it sent. */
    static final String RUN = "run";

    static final String SESSIONS_HELD = "sessions_held";
    static final String MESSAGES_SENT = "messages_sent";
}
