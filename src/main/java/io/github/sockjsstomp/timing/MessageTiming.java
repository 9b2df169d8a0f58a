package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A message's timing: from its send to its outcome (answered, lost, failed). One atomic value holds both its
 * state and its reply count (0: pending, n > 0: answered n times, negative: LOST or FAILED) and moves only by
 * compare-and-set, so every message lands in exactly one column of the books whatever thread (sender, I/O
 * thread, expiry sweeper, end of test) gets there first, and no reply beyond the expected number is counted.
 */
public final class MessageTiming {

    static final int LOST = -1;
    static final int FAILED = -2;

    final String msgId;
    /** The login (else the virtual user's name) and the virtual user that sent it. */
    final String sender;

    final String senderUser;
    /** Only a reply this virtual user receives answers the message; null: a reply to anyone does. */
    final String onlyFrom;

    final String destination;
    /** The destination as the plan writes it (placeholders and all), shared by every message sent to it. */
    final String destinationAsWritten;
    /**
     * The SEND as written, kept only for a replies sampler someone can read the contents of (JMeter's GUI, or a
     * results file that saves them): null otherwise, so a headless run keeps no message past its write.
     */
    final OutgoingMessage sent;
    /** Its first reply, kept as {@link #sent} is; written by the thread that answers it, before its record goes out. */
    IncomingMessage keptReply;

    /**
     * Who received the first reply, on which subscription, and when ({@link System#nanoTime()}): the same message there
     * again is the broker delivering it again, not a further answer. Written once, by the thread that answered it.
     */
    private volatile String firstReceiver;

    /** Written before {@link #firstReceiver}, read after it: its volatile write publishes them. */
    private String firstSubscription;

    private long firstReplyNanos;

    final long bytes;
    final long sentEpochMicros;
    final long sentNanos;
    final long deadlineNanos;
    /** 0: a broadcast, every reply until the deadline counts. */
    final int repliesExpected;

    final TimingSink sink;
    /** Its sender's answered messages and refusals. */
    final SenderBook senderBook;

    private final AtomicInteger repliesOrOutcome = new AtomicInteger();
    /**
     * Only for senders that wait (await-reply, await-receipt): fire-and-forget allocates nothing here. Once its
     * sender has taken the reply ({@link #forgetAnswer}), {@link #TAKEN}: the message stays known until its deadline
     * and must not keep the reply's headers and body alive that long (at 10,000 round trips a second, 5 s of them
     * are a hundred megabytes every young collection copies).
     */
    private CompletableFuture<IncomingMessage> firstReply;

    /** A message's first reply once its sender took it: settled, with nothing kept. */
    private static final CompletableFuture<IncomingMessage> TAKEN = CompletableFuture.completedFuture(null);

    final SendMode mode;
    /** Only for messages sent with a receipt header: null (nothing allocated) otherwise. */
    final MessageReceipt receipt;

    MessageTiming(
            OutgoingMessage message,
            String destinationAsWritten,
            boolean keepContents,
            long sentEpochMicros,
            long sentNanos,
            TimingOptions options,
            TimingSink sink,
            SenderBook senderBook) {
        this.msgId = message.msgId();
        this.sender = message.sender().loginOrName();
        this.senderUser = message.sender().name();
        this.onlyFrom = options.fromSenderOnly() ? senderUser : null;
        this.destination = message.destination();
        this.destinationAsWritten = destinationAsWritten;
        this.sent = keepContents ? message : null;
        this.bytes = message.payload().length;
        this.sentEpochMicros = sentEpochMicros;
        this.sentNanos = sentNanos;
        this.deadlineNanos = sentNanos + TimeUnit.MILLISECONDS.toNanos(options.replyTimeoutMillis());
        this.repliesExpected = options.repliesPerMessage();
        this.sink = sink;
        this.senderBook = senderBook;
        this.mode = options.mode();
        this.firstReply = mode.awaits() ? new CompletableFuture<>() : null;
        this.receipt = options.receipts() ? new MessageReceipt() : null;
    }

    public String msgId() {
        return msgId;
    }

    /**
     * Waits for the first reply, wherever it arrives (with await-receipt: the receipt, as a message without a
     * body received by the sender).
     *
     * @return the reply, or null when the message was lost, failed or the wait timed out
     */
    public IncomingMessage awaitFirstReply(long timeoutMillis) throws InterruptedException {
        if (firstReply == null) {
            throw new IllegalStateException("message " + msgId + " was not sent to be awaited");
        }
        try {
            return firstReply.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        }
    }

    /**
     * The closed loop's hook: runs {@code then} once the message has its outcome (answered, LOST or FAILED), on the
     * thread that settled it (an I/O thread, the expiry sweeper, the sender), or at once on the caller's if it has one
     * already. {@code then} must be short and must not block: it runs where replies are read.
     */
    public void whenSettled(Runnable then) {
        if (firstReply == null) {
            throw new IllegalStateException("message " + msgId + " was not sent to be awaited");
        }
        firstReply.whenComplete((reply, e) -> then.run());
    }

    /**
     * Its first reply (with await-receipt: its receipt) once answered; null while pending, when LOST or FAILED, or
     * once {@link #forgetAnswer forgotten}.
     */
    public IncomingMessage answer() {
        return firstReply == null ? null : firstReply.getNow(null);
    }

    /**
     * The sender's thread, once it has read the outcome ({@link #answer}, {@link #awaitFirstReply}): the reply is
     * not kept any longer. Only after the outcome: the threads that settle it read {@code firstReply} only while the
     * message is pending, so none reads it once this has run.
     */
    public void forgetAnswer() {
        if (firstReply != null && firstReply.isDone()) {
            firstReply = TAKEN;
        }
    }

    /** Whether it ended LOST (its deadline passed unanswered, or the test ended). */
    public boolean isLost() {
        return repliesOrOutcome.get() == LOST;
    }

    /** When it was sent, on {@link System#nanoTime()}'s clock. */
    public long sentNanos() {
        return sentNanos;
    }

    /** When this message's reply is due at the latest ({@link System#nanoTime()}): past it, the message is LOST. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * @return the reply's number (1 for the first), or 0 if the message already ended as LOST or FAILED or
     *     had all the replies it expected
     */
    int reply(IncomingMessage message) {
        while (true) {
            int current = repliesOrOutcome.get();
            if (current < 0 || (repliesExpected > 0 && current >= repliesExpected)) {
                return 0;
            }
            if (repliesOrOutcome.compareAndSet(current, current + 1)) {
                if (current == 0) {
                    firstReplyNanos = message.receivedNanos();
                    firstSubscription = message.subscription();
                    firstReceiver = message.receiver() == null
                            ? null
                            : message.receiver().name();
                    if (sent != null) {
                        keptReply = message;
                    }
                    senderBook.answered.increment();
                    if (firstReply != null) {
                        firstReply.complete(message);
                    }
                }
                return current + 1;
            }
        }
    }

    /** Ends an unanswered message as LOST or FAILED; false if it was answered or had already ended. */
    boolean end(int outcome) {
        boolean ended = repliesOrOutcome.compareAndSet(0, outcome);
        if (ended && firstReply != null) {
            firstReply.complete(null);
        }
        return ended;
    }

    /** Whether it still waits for its first reply: neither answered nor ended. */
    boolean pending() {
        return repliesOrOutcome.get() == 0;
    }

    /**
     * Whether {@code message} is the first reply again: the same virtual user received it on a subscription to the same
     * destination. Another subscriber's copy is not. (The broker's {@code message-id} cannot tell: Artemis puts its
     * consumer's id in it and RabbitMQ its delivery tag, so a delivery again after a reconnect has a new one, and
     * Artemis does not always mark it {@code redelivered:true}.)
     */
    boolean cameAgain(IncomingMessage message) {
        String receiver = firstReceiver;
        return receiver != null
                && message.receiver() != null
                && receiver.equals(message.receiver().name())
                && message.subscription().equals(firstSubscription);
    }

    /**
     * When the first reply arrived ({@link System#nanoTime()}); -1 while the thread that answered the message has not
     * yet said it (a delivery again that races its first).
     */
    long firstReplyNanos() {
        return firstReceiver == null ? -1 : firstReplyNanos;
    }

    /** Whether it was answered at least once. */
    boolean answered() {
        return repliesOrOutcome.get() > 0;
    }

    /** Its record in the timing log; {@code receiver} is null unless ANSWERED. */
    TimingRecord record(
            TimingRecord.Outcome outcome, long latencyMicros, UserSettings receiver, long recordBytes, String detail) {
        return new TimingRecord(
                sentEpochMicros,
                outcome,
                msgId,
                latencyMicros,
                sender,
                receiver == null ? "" : receiver.loginOrName(),
                destination,
                recordBytes,
                detail,
                mode,
                senderUser,
                receiver == null ? "" : receiver.name(),
                -1);
    }

    @Override
    public String toString() {
        return "MessageTiming[" + msgId + " from " + sender + " to " + destination + ", replies or outcome "
                + repliesOrOutcome.get() + (receipt == null ? "" : ", " + receipt) + "]";
    }
}
