package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.junit.jupiter.api.Test;

class IoThreadsTest {

    @Test
    void tomcatsContainerTakesTheGroupBeforeItsFirstConnect() throws Exception {
        AsynchronousChannelGroup group = IoThreads.group(2);
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
    void theGroupsThreadsAreNamedDaemons() throws Exception {
        AsynchronousChannelGroup group = IoThreads.group(3);
        try {
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
                    Thread thread = ran.get(10, TimeUnit.SECONDS);
                    assertThat(thread.getName()).matches("stomp-io-[123]");
                    assertThat(thread.isDaemon()).isTrue();
                }
            }
        } finally {
            group.shutdownNow();
        }
    }

    /** The group {@code container} uses; null while Tomcat's own is not built yet. */
    private static java.nio.channels.AsynchronousChannelGroup installed(
            org.apache.tomcat.websocket.WsWebSocketContainer container) throws ReflectiveOperationException {
        java.lang.reflect.Field field = org.apache.tomcat.websocket.WsWebSocketContainer.class.getDeclaredField(
                IoThreads.TOMCAT_GROUP_FIELD);
        field.setAccessible(true);
        return (java.nio.channels.AsynchronousChannelGroup) field.get(container);
    }
}
