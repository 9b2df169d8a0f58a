package io.github.sockjsstomp.bench.floors;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The floors' driver threads, one per body, and their progress: {@code answered <epoch ms> <count>} each second on
 * stdout until {@code endNanos}, the lines bench/generator_efficiency.py counts a window's replies from.
 */
final class FloorLoops {

    private FloorLoops() {}

    /** Runs {@code bodies} on threads named {@code <name>-1..n}, prints progress until {@code endNanos}, joins them. */
    static void run(String name, List<Runnable> bodies, long endNanos, LongSupplier answered)
            throws InterruptedException {
        List<Thread> loops = new ArrayList<>();
        for (int t = 0; t < bodies.size(); t++) {
            Thread loop = new Thread(bodies.get(t), name + "-" + (t + 1));
            loop.start();
            loops.add(loop);
        }
        while (System.nanoTime() - endNanos < 0) {
            TimeUnit.SECONDS.sleep(1);
            System.out.println("answered " + System.currentTimeMillis() + " " + answered.getAsLong());
        }
        for (Thread loop : loops) {
            loop.join();
        }
    }
}
