package io.github.sockjsstomp.timing;

import java.nio.file.Path;

/**
 * A JVM that sends, gets no replies, and exits without any sampler teardown (a kill, System.exit): the
 * shutdown hook must still write every record. Run by {@link TimingShutdownTest} in a child JVM.
 */
final class ExitWithoutTeardown {

    private ExitWithoutTeardown() {}

    public static void main(String[] args) throws Exception {
        int messages = Integer.parseInt(args[1]);
        Run run = Run.join(0, 0, r -> {});
        TimingLog log = run.timingLog(Path.of(args[0]), "local");
        ReplyTracker tracker = run.tracker();
        for (int i = 0; i < messages; i++) {
            TestMessages.register(
                    tracker,
                    TestMessages.outgoing("exiter", tracker.ids().next()),
                    TestMessages.options(60_000, 1, false),
                    log);
        }
        System.exit(0);
    }
}
