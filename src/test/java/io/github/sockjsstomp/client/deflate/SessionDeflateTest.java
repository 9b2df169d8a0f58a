package io.github.sockjsstomp.client.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.websocket.Extension;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.tomcat.websocket.MessagePart;
import org.apache.tomcat.websocket.MessagePartsForTests;
import org.apache.tomcat.websocket.Transformation;
import org.apache.tomcat.websocket.TransformationResult;
import org.junit.jupiter.api.Test;

/**
 * The session's permessage-deflate against zlib as a server uses it (Tomcat's extension: one deflater and one inflater
 * per session, each keeping its context from message to message), frame payloads handed over as Tomcat's frame
 * reader and writer hand them.
 */
class SessionDeflateTest {

    private static final byte TEXT = 1;
    private static final int RSV1 = 0b100;
    private static final byte[] TAIL = {0, 0, -1, -1};

    private static SessionDeflate browserTerms() {
        DeflateTerms terms = DeflateTerms.of(List.of());
        assertThat(terms).isNotNull();
        return new SessionDeflate(terms, new ZlibPool(4));
    }

    /** A STOMP-like text message of {@code size} bytes, varied enough that zlib has work to do. */
    private static byte[] message(int size, Random random) {
        StringBuilder text = new StringBuilder("MESSAGE\ndestination:/topic/chat\nx-msg-id:");
        while (text.length() < size) {
            text.append("user-")
                    .append(random.nextInt(1000))
                    .append(" says ")
                    .append(random.nextLong())
                    .append('\n');
        }
        return Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    // ---- Reading

    /** Tomcat's frame reader below the extension: hands over one frame's payload, as much as the buffer takes. */
    private static final class FrameReader implements Transformation {
        private ByteBuffer frame = ByteBuffer.allocate(0);

        void nextFrame(byte[] payload) {
            frame = ByteBuffer.wrap(payload);
        }

        @Override
        public TransformationResult getMoreData(byte opCode, boolean fin, int rsv, ByteBuffer dest) {
            int n = Math.min(frame.remaining(), dest.remaining());
            dest.put(frame.array(), frame.position(), n);
            frame.position(frame.position() + n);
            return frame.hasRemaining() ? TransformationResult.OVERFLOW : TransformationResult.END_OF_FRAME;
        }

        @Override
        public boolean validateRsvBits(int i) {
            return true;
        }

        @Override
        public boolean validateRsv(int rsv, byte opCode) {
            return true;
        }

        @Override
        public Extension getExtensionResponse() {
            return null;
        }

        @Override
        public void setNext(Transformation t) {}

        @Override
        public List<MessagePart> sendMessagePart(List<MessagePart> messageParts) {
            return messageParts;
        }

        @Override
        public void close() {}
    }

    /** A server's compression of one message with its context kept: a flushed deflate, its tail left off. */
    private static byte[] serverCompresses(Deflater server, byte[] message) {
        server.setInput(message);
        byte[] out = new byte[message.length + 64];
        int length = 0;
        while (true) {
            length += server.deflate(out, length, out.length - length, Deflater.SYNC_FLUSH);
            if (length < out.length) {
                break;
            }
            out = Arrays.copyOf(out, out.length * 2);
        }
        assertThat(Arrays.copyOfRange(out, length - 4, length)).isEqualTo(TAIL);
        return Arrays.copyOf(out, length - 4);
    }

    /** The message as the application reads it: the extension's output through a buffer of {@code bufferBytes}. */
    private static byte[] read(SessionDeflate session, FrameReader reader, byte[] frame, int bufferBytes)
            throws Exception {
        reader.nextFrame(frame);
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(bufferBytes);
        for (int calls = 0; calls < 10_000; calls++) {
            buffer.clear();
            TransformationResult result = session.getMoreData(TEXT, true, RSV1, buffer);
            message.write(buffer.array(), 0, buffer.position());
            if (result == TransformationResult.END_OF_FRAME) {
                return message.toByteArray();
            }
            assertThat(result).isEqualTo(TransformationResult.OVERFLOW);
        }
        throw new AssertionError("the message did not end");
    }

    @Test
    void readsEveryMessageOfAServerThatKeepsItsContextAndKeepsAnInflaterOnceSentEnough() throws Exception {
        SessionDeflate session = browserTerms();
        FrameReader reader = new FrameReader();
        session.setNext(reader);
        Deflater server = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        Random random = new Random(48);
        int[] sizes = {120, 1, 900, 3000, 2500, 1500, 40_000, 7, 300, 70_000, 150, 150, 5000};
        int received = 0;
        for (int size : sizes) {
            byte[] message = message(size, random);
            for (int bufferBytes : new int[] {1024}) {
                assertThat(read(session, reader, serverCompresses(server, message), bufferBytes))
                        .as("a message of %d bytes after %d bytes", size, received)
                        .isEqualTo(message);
            }
            received += size;
            assertThat(session.keepsInflater())
                    .as("keeps an inflater after %d bytes", received)
                    .isEqualTo(received >= SessionDeflate.OWN_FROM);
            assertThat(session.historyBytes()).isEqualTo(received >= SessionDeflate.OWN_FROM ? 0 : received);
        }
        session.close();
    }

    @Test
    void aSessionThatReceivedLittleKeepsItsBytesNotAnInflater() throws Exception {
        ZlibPool pool = new ZlibPool(4);
        SessionDeflate session = new SessionDeflate(DeflateTerms.of(List.of()), pool);
        FrameReader reader = new FrameReader();
        session.setNext(reader);
        Deflater server = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        byte[] connected = "CONNECTED\nversion:1.2\nheart-beat:10000,10000\n\n\0".getBytes(StandardCharsets.US_ASCII);
        byte[] heartBeat = {'\n'};
        assertThat(read(session, reader, serverCompresses(server, connected), 1024))
                .isEqualTo(connected);
        for (int i = 0; i < 100; i++) {
            assertThat(read(session, reader, serverCompresses(server, heartBeat), 1024))
                    .isEqualTo(heartBeat);
        }
        assertThat(session.keepsInflater()).isFalse();
        assertThat(session.historyBytes()).isEqualTo(connected.length + 100);
        assertThat(pool.inflatersMade()).isEqualTo(1);
        assertThat(pool.inflatersKept()).isZero();
    }

    // ---- Writing

    /** What the server reads: the frames' payloads of each message, the tail put back, inflated with its context. */
    private static byte[] serverInflates(Inflater server, List<MessagePart> frames) throws Exception {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        for (MessagePart frame : frames) {
            ByteBuffer payload = frame.getPayload();
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            compressed.write(bytes);
        }
        compressed.write(TAIL);
        server.setInput(compressed.toByteArray());
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        byte[] out = new byte[4096];
        while (!server.needsInput()) {
            int n = server.inflate(out);
            message.write(out, 0, n);
            if (n == 0 && !server.needsInput()) {
                throw new AssertionError("the inflater is stuck");
            }
        }
        return message.toByteArray();
    }

    private static List<MessagePart> write(SessionDeflate session, byte[]... parts) throws Exception {
        List<MessagePart> frames = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            List<MessagePart> in = new ArrayList<>();
            in.add(MessagePartsForTests.text(i == 0, i == parts.length - 1, parts[i]));
            frames.addAll(session.sendMessagePart(in));
        }
        return frames;
    }

    @Test
    void writesSmallMessagesAsStoredBlocksAndLargerOnesDeflatedAllReadByAServerKeepingItsContext() throws Exception {
        SessionDeflate session = browserTerms();
        Inflater server = new Inflater(true);
        Random random = new Random(7692);
        int[] sizes = {1, 150, SessionDeflate.DEFLATE_FROM - 1, SessionDeflate.DEFLATE_FROM, 20_000, 150, 70_000, 2};
        for (int size : sizes) {
            byte[] message = message(size, random);
            List<MessagePart> frames = write(session, message);
            assertThat(frames).singleElement().satisfies(frame -> {
                assertThat(frame.getRsv() & RSV1)
                        .as("RSV1 of a %d-byte message", size)
                        .isEqualTo(RSV1);
                int onWire = frame.getPayload().remaining();
                if (size < SessionDeflate.DEFLATE_FROM) {
                    // one stored block (a 5-byte header) and the first byte of the empty one that ends the message
                    assertThat(onWire).isEqualTo(size + 6);
                } else {
                    assertThat(onWire).isLessThan(size);
                }
            });
            assertThat(serverInflates(server, frames))
                    .as("a %d-byte message", size)
                    .isEqualTo(message);
        }
    }

    @Test
    void aMessageWrittenInPartsIsDeflatedWithRsv1OnItsFirstFrameOnly() throws Exception {
        SessionDeflate session = browserTerms();
        Inflater server = new Inflater(true);
        Random random = new Random(1);
        byte[] first = message(100, random);
        byte[] last = message(100, random);
        List<MessagePart> frames = write(session, first, last);
        assertThat(frames).isNotEmpty();
        assertThat(frames.get(0).getRsv() & RSV1).isEqualTo(RSV1);
        assertThat(frames.subList(1, frames.size()))
                .allSatisfy(f -> assertThat(f.getRsv() & RSV1).isZero());
        byte[] whole = new byte[200];
        System.arraycopy(first, 0, whole, 0, 100);
        System.arraycopy(last, 0, whole, 100, 100);
        assertThat(serverInflates(server, frames)).isEqualTo(whole);
        byte[] after = message(150, random);
        assertThat(serverInflates(server, write(session, after))).isEqualTo(after);
    }
}
