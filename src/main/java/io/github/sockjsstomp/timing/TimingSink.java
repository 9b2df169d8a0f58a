package io.github.sockjsstomp.timing;

/** Where timing records go. Called on sending and I/O threads: must not block. */
@FunctionalInterface
public interface TimingSink {

    TimingSink NONE = record -> {};

    void record(TimingRecord record);
}
