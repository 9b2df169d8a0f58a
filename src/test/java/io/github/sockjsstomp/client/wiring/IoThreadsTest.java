package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.junit.jupiter.api.Test;

class IoThreadsTest {

    @Test
    void tomcatsContainerTakesTheGroupBeforeItsFirstConnect() throws Exception {
        AsynchronousChannelGroup group = IoThreads.lanes(1).get(0);
        try {
            WsWebSocketContainer container = new WsWebSocketContainer();
            assertThat(installed(container)).isNull();
            IoThreads.install(container, group);
            assertThat(installed(container)).isSameAs(group);
        } finally {
            group.shutdownNow();
        }
    }

    @Test
    void eachLaneIsOneNamedDaemonThread() throws Exception {
        List<AsynchronousChannelGroup> lanes = IoThreads.lanes(3);
        assertThat(lanes).hasSize(3).doesNotHaveDuplicates();
        try {
            assertThat(handlerThread(lanes.get(0)).getName()).isEqualTo("stomp-io-1");
            assertThat(handlerThread(lanes.get(2)).getName()).isEqualTo("stomp-io-3");
            // One thread per lane: every completion of a lane runs on the same thread, the one that polls.
            Thread first = handlerThread(lanes.get(1));
            assertThat(handlerThread(lanes.get(1))).isSameAs(first);
            assertThat(first.isDaemon()).isTrue();
        } finally {
            for (AsynchronousChannelGroup lane : lanes) {
                lane.shutdownNow();
            }
        }
    }

    /** The thread that runs a completion handler of a channel in {@code group}. */
    private static Thread handlerThread(AsynchronousChannelGroup group) throws Exception {
        {
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            // Completion handlers of the group's channels run on its threads.
            try (var channel = AsynchronousServerSocketChannel.open(group)) {
                channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                try (var client = AsynchronousSocketChannel.open(group)) {
                    channel.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                        @Override
                        public void completed(AsynchronousSocketChannel accepted, Void attachment) {
                            ran.complete(Thread.currentThread());
                        }

                        @Override
                        public void failed(Throwable exc, Void attachment) {
                            ran.completeExceptionally(exc);
                        }
                    });
                    client.connect(channel.getLocalAddress()).get(10, TimeUnit.SECONDS);
                    return ran.get(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The group {@code container} uses; null while Tomcat's own is not built yet. */
    private static AsynchronousChannelGroup installed(WsWebSocketContainer container)
            throws ReflectiveOperationException {
        Field field = WsWebSocketContainer.class.getDeclaredField(IoThreads.TOMCAT_GROUP_FIELD);
        field.setAccessible(true);
        return (AsynchronousChannelGroup) field.get(container);
    }
}
