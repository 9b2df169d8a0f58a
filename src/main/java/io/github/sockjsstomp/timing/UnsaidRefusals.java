package io.github.sockjsstomp.timing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * ERROR frames the server sent on the open sessions of one JMeter thread's users that no sample of that thread has
 * said yet. A fire-and-forget sample is over when its message is written, so the server's refusal, which comes
 * after, is said by the thread's next sample instead: JMeter's error count moves, and the refused message itself
 * is FAILED or LOST in the books. Written on I/O threads, taken by the thread's sampler: a sample costs one
 * volatile read while no ERROR comes.
 */
public final class UnsaidRefusals {

    private final AtomicLong count = new AtomicLong();
    private volatile String lastErrorText;

    void note(String errorText) {
        lastErrorText = errorText;
        count.incrementAndGet();
    }

    /**
     * The server's words since the last call, with how many ERROR frames there were if more than one; null if
     * none came.
     */
    public String take() {
        if (count.get() == 0) {
            return null;
        }
        long frames = count.getAndSet(0);
        if (frames == 0) {
            return null;
        }
        String errorText = lastErrorText;
        return frames == 1 ? errorText : errorText + " (the last of " + frames + " ERROR frames since the last sample)";
    }
}
