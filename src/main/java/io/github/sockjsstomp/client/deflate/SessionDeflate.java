package io.github.sockjsstomp.client.deflate;

import jakarta.websocket.Extension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ListIterator;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.tomcat.websocket.MessagePart;
import org.apache.tomcat.websocket.Transformation;
import org.apache.tomcat.websocket.TransformationResult;
import org.apache.tomcat.websocket.TransformedParts;

/**
 * One client session's permessage-deflate (RFC 7692) in Tomcat's frame pipeline, in place of Tomcat's own, which
 * keeps a zlib deflater and inflater for every session (about 300 KB of native memory each).
 *
 * <p>The server's side stays exactly as a browser's offer makes it; only what the client keeps differs:
 *
 * <ul>
 *   <li>Outgoing: every message goes compressed (RSV1 set, so the server inflates each one through its inflater and
 *       window, as it does a browser's) and on its own, referring to nothing before it: the RFC lets a client do so
 *       whether or not it said {@code client_no_context_takeover}. A message under {@link #DEFLATE_FROM} bytes goes as
 *       a stored deflate block (its bytes behind a 5-byte header): a fresh zlib deflate of a 150-byte STOMP frame
 *       costs the generator 9 to 30 us (its 64 KB hash table cleared each time, the caches with it) to save about a
 *       seventh of the bytes, and no context can be kept to do better without a deflater per session. Larger
 *       messages are deflated with a deflater lent by the JVM's {@link ZlibPool} for that message. OkHttp, for the
 *       same reason, does not compress messages under 1 KB at all.
 *   <li>Incoming: a server that keeps its context compresses each message against the ones before, so the session
 *       keeps what the server sent ({@link InflateHistory}, as much as was sent, up to the window) and gives it to a
 *       lent inflater as its dictionary when the next compressed message starts. Once the server has sent a session
 *       {@link #OWN_FROM} bytes, handing the window over again for every message would cost more than keeping it in
 *       zlib: the session then keeps an inflater of its own, made with its window (about 40 KB, where the history
 *       would grow to 32 KB), and gives up its history. A held session that received little stays on the history.
 * </ul>
 *
 * A session holds a lent stream only while a message is under way: from the first to the last frame of a message
 * written, or from a compressed message's first frame until its last was read (a frame split over reads keeps it in
 * between). Reads of a session run on one thread at a time, and so do its writes (Tomcat's and our serialised
 * session's), so the two halves need no lock.
 */
public final class SessionDeflate implements Transformation {

    /** The extension's name. */
    public static final String NAME = "permessage-deflate";

    private static final int RSV1 = 0b100;
    private static final byte OPCODE_CONTINUATION = 0;
    /** What a flushed deflate block ends with, left off the wire and put back before inflating (RFC 7692, 7.2). */
    private static final byte[] TAIL = {0, 0, -1, -1};

    /** Messages of fewer bytes, whole in one part, go as a stored deflate block, longer ones deflated. */
    static final int DEFLATE_FROM = 1024;

    /** Bytes received after which the session keeps its own inflater rather than the server's window as bytes. */
    static final int OWN_FROM = 8 * 1024;

    private final DeflateTerms terms;
    private final ZlibPool pool;
    private Transformation next;

    // Reading.
    private InflateHistory history;
    /** The session's own inflater, its window the server's, once the server sent {@link #OWN_FROM} bytes. */
    private volatile ZlibPool.Inflating owned;
    /** A lent inflater kept across calls: a message read in pieces. */
    private ZlibPool.Inflating inflating;

    private boolean readingCompressed;
    private boolean tailGiven;
    private boolean heldByte;
    private final byte[] oneByte = new byte[1];

    // Writing.
    private ZlibPool.Deflating deflating;
    private boolean writingMessage;
    private boolean writingCompressed;
    private boolean firstFrameWritten;

    /**
     * Set by Tomcat's close, on whichever thread closes: a stream lent to this session then goes back to no one (a
     * read or write under way on another thread may still be using it); the collector's cleaner frees it.
     */
    private volatile boolean closed;

    SessionDeflate(DeflateTerms terms, ZlibPool pool) {
        this.terms = terms;
        this.pool = pool;
        this.history = terms.serverContextTakeover() ? new InflateHistory(1 << terms.serverWindowBits()) : null;
    }

    /** The transformation for the server's answer, or null when it is not one a client may accept. */
    static SessionDeflate negotiate(List<List<Extension.Parameter>> answers, ZlibPool pool) {
        if (answers.size() != 1) {
            return null;
        }
        DeflateTerms terms = DeflateTerms.of(answers.get(0));
        return terms == null ? null : new SessionDeflate(terms, pool);
    }

    DeflateTerms terms() {
        return terms;
    }

    /** Bytes of the server's window this session keeps on the heap (0 when it keeps none or keeps an inflater). */
    int historyBytes() {
        return history == null ? 0 : history.length();
    }

    /** Whether the session keeps an inflater of its own (the server has sent it {@link #OWN_FROM} bytes). */
    boolean keepsInflater() {
        return owned != null;
    }

    @Override
    public void setNext(Transformation next) {
        this.next = next;
    }

    @Override
    public boolean validateRsvBits(int i) {
        if ((i & RSV1) != 0) {
            return false;
        }
        return next == null || next.validateRsvBits(i | RSV1);
    }

    /** What was agreed, as a server would answer it (Tomcat asks a server's side only). */
    @Override
    public Extension getExtensionResponse() {
        List<Extension.Parameter> parameters = new ArrayList<>();
        if (!terms.serverContextTakeover()) {
            parameters.add(new Agreed.Parameter(DeflateTerms.SERVER_NO_CONTEXT_TAKEOVER, null));
        }
        if (terms.serverWindowBits() != DeflateTerms.MAX_WINDOW_BITS) {
            parameters.add(new Agreed.Parameter(
                    DeflateTerms.SERVER_MAX_WINDOW_BITS, Integer.toString(terms.serverWindowBits())));
        }
        if (terms.clientWindowBits() != DeflateTerms.MAX_WINDOW_BITS) {
            parameters.add(new Agreed.Parameter(
                    DeflateTerms.CLIENT_MAX_WINDOW_BITS, Integer.toString(terms.clientWindowBits())));
        }
        return new Agreed(NAME, List.copyOf(parameters));
    }

    private record Agreed(String getName, List<Extension.Parameter> getParameters) implements Extension {

        private record Parameter(String getName, String getValue) implements Extension.Parameter {}
    }

    @Override
    public boolean validateRsv(int rsv, byte opCode) {
        if (isControl(opCode)) {
            return (rsv & RSV1) == 0 && (next == null || next.validateRsv(rsv, opCode));
        }
        // RSV1 marks a compressed message on its first frame only; continuation frames must not carry it
        if ((rsv & RSV1) != 0 && opCode == OPCODE_CONTINUATION) {
            return false;
        }
        return next == null || next.validateRsv(rsv & ~RSV1, opCode);
    }

    // ---- Reading: the same steps as Tomcat's PerMessageDeflate, on a lent inflater and the session's history.

    @Override
    public TransformationResult getMoreData(byte opCode, boolean fin, int rsv, ByteBuffer dest) throws IOException {
        if (isControl(opCode)) {
            return next.getMoreData(opCode, fin, rsv, dest);
        }
        if (opCode != OPCODE_CONTINUATION) {
            readingCompressed = (rsv & RSV1) != 0;
        }
        if (!readingCompressed) {
            return next.getMoreData(opCode, fin, rsv, dest);
        }
        // Most messages are read whole in one call: the lent inflater then never becomes the session's (a field
        // written per message is a card the collector must refine).
        ZlibPool.Inflating own = owned;
        ZlibPool.Inflating lent = own != null ? own : inflating;
        boolean kept = lent != null;
        if (!kept) {
            lent = startReading();
        }
        TransformationResult result;
        try {
            result = inflateFrame(opCode, fin, rsv, dest, lent);
        } catch (IllegalStateException | NullPointerException e) {
            throw new IOException("The session's inflater was closed", e);
        }
        if (fin && result == TransformationResult.END_OF_FRAME) {
            if (own == null) {
                endMessage(lent, kept);
            }
        } else if (!kept) {
            inflating = lent;
        }
        return result;
    }

    /** A message read whole: its lent inflater goes back, or stays as the session's own once enough was received. */
    private void endMessage(ZlibPool.Inflating lent, boolean kept) {
        if (kept) {
            inflating = null;
        }
        if (closed) {
            return;
        }
        if (history != null && history.length() >= OWN_FROM) {
            // zlib keeps the window from here, and the session stops copying it; the lent inflater goes back
            ZlibPool.Inflating own = pool.keep(history.bytes(), history.length());
            pool.giveBack(lent);
            owned = own;
            history = null;
            if (closed) {
                own.inflater.end();
            }
        } else {
            pool.giveBack(lent);
        }
    }

    private TransformationResult inflateFrame(
            byte opCode, boolean fin, int rsv, ByteBuffer dest, ZlibPool.Inflating lent) throws IOException {
        Inflater inflater = lent.inflater;
        if (heldByte) {
            if (!dest.hasRemaining()) {
                return TransformationResult.OVERFLOW;
            }
            put(dest, oneByte[0]);
            heldByte = false;
            if (!dest.hasRemaining()) {
                return inflateTail(lent) ? TransformationResult.OVERFLOW : endFrame();
            }
        }
        while (dest.hasRemaining()) {
            int written = inflate(inflater, dest);
            if (inflater.needsInput() && !tailGiven) {
                ByteBuffer input = lent.input;
                input.clear();
                TransformationResult read = next.getMoreData(opCode, fin, rsv & ~RSV1, input);
                inflater.setInput(input.array(), input.arrayOffset(), input.position());
                if (dest.hasRemaining()) {
                    if (read == TransformationResult.UNDERFLOW) {
                        return read;
                    }
                    if (read == TransformationResult.END_OF_FRAME && input.position() == 0) {
                        if (!fin) {
                            return endFrame();
                        }
                        giveTail(lent);
                    }
                } else if (input.position() > 0) {
                    return TransformationResult.OVERFLOW;
                } else if (read == TransformationResult.END_OF_FRAME) {
                    if (fin && inflateTail(lent)) {
                        return TransformationResult.OVERFLOW;
                    }
                    return endFrame();
                } else if (read == TransformationResult.UNDERFLOW) {
                    return read;
                } else {
                    throw new IllegalStateException("The frame reader after permessage-deflate answered " + read);
                }
            } else if (written == 0) {
                return endFrame();
            }
        }
        if (tailGiven) {
            return inflateTail(lent) ? TransformationResult.OVERFLOW : endFrame();
        }
        return TransformationResult.OVERFLOW;
    }

    /**
     * Gives the inflater the message's tail through its own input buffer, which it has wholly read: the inflater then
     * refers to no other array (a reference written per message into a long-lived object is a card the collector
     * must refine).
     */
    private void giveTail(ZlibPool.Inflating lent) {
        ByteBuffer input = lent.input;
        input.clear();
        input.put(TAIL);
        lent.inflater.setInput(input.array(), input.arrayOffset(), TAIL.length);
        tailGiven = true;
    }

    private ZlibPool.Inflating startReading() throws IOException {
        ZlibPool.Inflating lent = pool.inflating();
        if (history != null && history.length() > 0) {
            try {
                lent.inflater.setDictionary(history.bytes(), 0, history.length());
            } catch (IllegalArgumentException e) {
                throw new IOException("Cannot give the server's window to the inflater", e);
            }
        }
        return lent;
    }

    /** Inflates the message's tail; true when that gave one more byte, held until the reader has room. */
    private boolean inflateTail(ZlibPool.Inflating lent) throws IOException {
        if (!tailGiven) {
            giveTail(lent);
        }
        Inflater inflater = lent.inflater;
        try {
            if (inflater.inflate(oneByte, 0, 1) > 0) {
                heldByte = true;
                return true;
            }
            return false;
        } catch (DataFormatException e) {
            throw new IOException("The server's compressed message does not inflate: " + e.getMessage(), e);
        }
    }

    private int inflate(Inflater inflater, ByteBuffer dest) throws IOException {
        int start = dest.position();
        int written;
        try {
            written = inflater.inflate(dest.array(), dest.arrayOffset() + start, dest.remaining());
        } catch (DataFormatException e) {
            throw new IOException("The server's compressed message does not inflate: " + e.getMessage(), e);
        }
        if (written > 0 && history != null) {
            history.append(dest.array(), dest.arrayOffset() + start, written);
        }
        dest.position(start + written);
        return written;
    }

    private void put(ByteBuffer dest, byte value) {
        dest.put(value);
        if (history != null) {
            history.append(oneByte, 0, 1);
        }
    }

    private TransformationResult endFrame() {
        tailGiven = false;
        heldByte = false;
        return TransformationResult.END_OF_FRAME;
    }

    // ---- Writing: each message compressed on its own, a frame out for each part in.

    @Override
    public List<MessagePart> sendMessagePart(List<MessagePart> parts) throws IOException {
        // Tomcat hands over a list of its own per call: each part is replaced in it by its frame (or left out)
        ListIterator<MessagePart> each = parts.listIterator();
        while (each.hasNext()) {
            MessagePart part = each.next();
            if (isControl(part.getOpCode())) {
                continue;
            }
            boolean whole = !writingMessage && part.isFin();
            if (!writingMessage) {
                writingMessage = true;
                writingCompressed = worthCompressing(part);
                firstFrameWritten = false;
            }
            if (writingCompressed && whole && part.getPayload().remaining() < DEFLATE_FROM) {
                each.set(stored(part));
            } else if (writingCompressed) {
                MessagePart frame = deflateOne(part);
                if (frame == null) {
                    each.remove();
                } else {
                    each.set(frame);
                }
            }
            if (part.isFin()) {
                writingMessage = false;
            }
        }
        return next == null ? parts : next.sendMessagePart(parts);
    }

    /**
     * The frame of one part; null when the deflater has nothing to write yet. A message of one part (STOMP's, as Spring
     * writes a frame) takes its deflater and gives it back in this call, without the session ever holding it.
     */
    private MessagePart deflateOne(MessagePart part) throws IOException {
        ZlibPool.Deflating lent = deflating;
        boolean kept = lent != null;
        if (!kept) {
            lent = pool.deflating();
        }
        MessagePart frame = deflate(part, lent);
        if (part.isFin()) {
            if (kept) {
                deflating = null;
            }
            if (!closed) {
                pool.giveBack(lent);
            }
        } else if (!kept) {
            deflating = lent;
        }
        return frame;
    }

    /**
     * Whether a message that starts with {@code first} goes compressed. An empty message goes as it is (as Tomcat's
     * does). A server that narrowed the client's window gets compressed only the messages that fit in it whole: a
     * message compressed on its own refers to nothing further back than its own length. Sending a message uncompressed
     * is always allowed (RFC 7692, section 6).
     */
    private boolean worthCompressing(MessagePart first) {
        int length = first.getPayload().remaining();
        if (first.isFin() && length == 0) {
            return false;
        }
        if (terms.clientWindowBits() < DeflateTerms.MAX_WINDOW_BITS) {
            return first.isFin() && length <= 1 << terms.clientWindowBits();
        }
        return true;
    }

    private MessagePart deflate(MessagePart part, ZlibPool.Deflating lent) throws IOException {
        Deflater deflater = lent.deflater;
        try {
            deflater.setInput(part.getPayload());
            int flush = part.isFin() ? Deflater.SYNC_FLUSH : Deflater.NO_FLUSH;
            byte[] output = lent.output();
            int length = 0;
            while (true) {
                length += deflater.deflate(output, length, output.length - length, flush);
                if (length < output.length && deflater.needsInput()) {
                    break;
                }
                if (length == output.length) {
                    output = lent.grown();
                }
            }
            if (part.isFin()) {
                if (length < TAIL.length || output[length - 1] != -1 || output[length - 2] != -1) {
                    throw new IOException("The deflater did not end the message with a flush block");
                }
                length -= TAIL.length;
            } else if (length == 0) {
                // nothing to write for this part yet: Tomcat reports it written when no frame comes out
                return null;
            }
            int rsv = firstFrameWritten ? part.getRsv() : part.getRsv() | RSV1;
            firstFrameWritten = true;
            return TransformedParts.withPayload(part, rsv, ByteBuffer.wrap(Arrays.copyOf(output, length)));
        } catch (IllegalStateException | NullPointerException e) {
            throw new IOException("The session's compressor was closed", e);
        }
    }

    /**
     * A whole message of fewer than {@link #DEFLATE_FROM} bytes as one stored deflate block (RFC 1951, 3.2.4): its bytes
     * behind a 5-byte header, no zlib, then the first byte of the empty stored block that ends a message (the rest of
     * it RFC 7692 leaves off the wire).
     */
    private static MessagePart stored(MessagePart whole) {
        ByteBuffer payload = whole.getPayload();
        int n = payload.remaining();
        byte[] out = new byte[5 + n + 1];
        out[0] = 0; // not the last block; stored
        out[1] = (byte) n;
        out[2] = (byte) (n >>> 8);
        out[3] = (byte) ~n;
        out[4] = (byte) (~n >>> 8);
        payload.get(out, 5, n);
        return TransformedParts.withPayload(whole, whole.getRsv() | RSV1, ByteBuffer.wrap(out));
    }

    @Override
    public void close() {
        closed = true;
        ZlibPool.Inflating own = owned;
        if (own != null) {
            // as Tomcat's own extension ends its streams at close: a read under way fails as a closed session's
            own.inflater.end();
        }
        if (next != null) {
            next.close();
        }
    }

    private static boolean isControl(byte opCode) {
        return (opCode & 0x08) != 0;
    }

    @Override
    public String toString() {
        return "SessionDeflate" + terms;
    }
}
