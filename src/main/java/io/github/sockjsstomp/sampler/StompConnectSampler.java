package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.user.Silence;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.threadusers.ConnectsInFlight;
import io.github.sockjsstomp.threadusers.GroupThreads;
import io.github.sockjsstomp.threadusers.Reconnects;
import io.github.sockjsstomp.threadusers.SilentSessions;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.threadusers.UserTurns;
import io.github.sockjsstomp.timing.Run;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * The session sampler: it makes the thread's users and connects them, and alone it is the connection-capacity
 * test. While some of the thread's users are not connected, a sample starts their connects, in order, until
 * {@code connectsInFlight} are under way ({@link ConnectsInFlight}: paced, each user logging in and connecting on a
 * connect lane), then returns the first to finish: one sample per user, timed from that user's start to its
 * CONNECTED and subscribes (or its failure), a sub-result per step, connect time set; the sessions then stay open
 * with their heart-beats. Once all are up, a sample checks they are still alive: a session the server dropped is
 * reported once as ConnectionLost, and a later sample connects it again.
 *
 * <p>After each sample the variable {@value StompParameters#ALL_CONNECTED_VARIABLE} says whether all of the
 * thread's users are connected ({@code true} after an alive check), so a plan holds only then, and
 * {@value StompParameters#USERS_TO_CONNECT_VARIABLE} whether some have not had their first connect yet, or have
 * it under way (a plan loops on it until every user's first connect has its sample). Users are
 * connected in order first; only after that does a sample look over all of them for one to reconnect, so
 * connecting N users costs N samples, not N². A send sampler after it in the same thread sends on its users
 * (see {@link ThreadUsers}).
 *
 * <p>Reconnects back off per user ({@link Reconnects}): while users are down and none is due, a sample waits
 * for the first that is (outside its time; Stop ends the wait) instead of returning at once, since a plan
 * holds only once all are up and would otherwise loop without a pause.
 *
 * <p>Dead clients: with {@code silentShare} above 0, that share of the users goes silent {@code silentAfterSeconds}
 * seconds after each connect ({@link Silence}): it sends nothing more, heart-beats included, and keeps its
 * connection open. A silent user is never reconnected. Once the server closes its session, a check reports it
 * as one {@code expired} sample, timed from going silent to the close, before it looks at anything else (the
 * hold is skipped meanwhile, so several come in a row); those the test ends before are reported by the plan's
 * tearDown sampler ({@link StompExpirySampler}).
 */
public class StompConnectSampler extends StompSampler {

    /** One list for every instance: JMeter makes a sampler per thread. */
    private static final List<Parameter<?>> PARAMETERS = parameters();

    private static final String ALIVE = " alive";

    private ThreadUsers users;
    private int cursor;
    /** Users connected in order so far: the first pass. */
    private int firstPass;
    /** The run's users steps, if a steps sampler runs them: the first pass goes as far as this thread's share. */
    private StepsFollower steps;

    public StompConnectSampler() {
        super(PARAMETERS);
    }

    private static List<Parameter<?>> parameters() {
        List<Parameter<?>> all = new ArrayList<>(ConnectionParameters.list(StompParameters.SUBSCRIBE_TO));
        all.add(StompParameters.CONNECTS_IN_FLIGHT);
        all.add(StompParameters.WARM_UP);
        all.add(StompParameters.SILENT_AFTER_SECONDS);
        all.add(StompParameters.SILENT_SHARE);
        all.addAll(ServerFigurePolling.PARAMETERS);
        return List.copyOf(all);
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        Run run = joinRun(0);
        ServerFigurePolling.start(params, run);
        double silentAfterSeconds = params.read(StompParameters.SILENT_AFTER_SECONDS);
        double silentShare = params.read(StompParameters.SILENT_SHARE);
        int connectsInFlight = params.readInt(StompParameters.CONNECTS_IN_FLIGHT);
        boolean warmUp = params.read(StompParameters.WARM_UP);
        var settings = ConnectionParameters.read(params, StompParameters.SUBSCRIBE_TO, warmUp, run);
        SilentSessions.Share silent = silentShare > 0
                ? new SilentSessions.Share(silentShare, Math.round(silentAfterSeconds * 1000), run.capacity())
                : SilentSessions.Share.NONE;
        users = settings == null
                ? null
                : own(ConnectionParameters.users(settings, settings.sharedClients(), connectsInFlight, silent, run));
        steps = new StepsFollower(run, GroupThreads.ofThisThread(run), 0);
        if (users != null) {
            if (silentShare > 0
                    && users.size() > 0
                    && users.users().get(0).settings().connect().heartbeatMillis() == 0) {
                run.noticeOnce(
                        "silent-without-heart-beats",
                        "silentShare=" + silentShare
                                + " with heartbeatMillis=0: the client offers no heart-beats, so the server has none to "
                                + "miss; silent sessions will likely end NotExpired");
            }
            users.publish();
        }
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        SampleResult result = sampleNext(label);
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(
                    StompParameters.ALL_CONNECTED_VARIABLE,
                    Boolean.toString(result.getSampleLabel().equals(label + ALIVE)));
            variables.put(
                    StompParameters.USERS_TO_CONNECT_VARIABLE,
                    Boolean.toString(
                            firstPass < users.size() || users.inFlight().count() > 0));
        }
        return result;
    }

    private SampleResult sampleNext(String label) throws InterruptedException {
        int count = users.size();
        ConnectsInFlight inFlight = users.inFlight();
        if (firstPass < count || inFlight.count() > 0) {
            int joining =
                    steps.usersNow(count, JMeterContextService.getContext().getThreadNum() + 1);
            // the first pass: start users in order until the connects under way fill up, then take the first done
            while (firstPass < joining && inFlight.hasRoom() && !inFlight.hasFinished()) {
                inFlight.start(firstPass++, label);
            }
            if (inFlight.count() > 0) {
                return inFlight.awaitFirst(label);
            }
            if (firstPass < count) {
                // users steps: this thread's share of the step is online; the next joins with the next step
                return steps.awaitNextChange();
            }
        }
        Silence expired = SilentSessions.takeExpired(users.users());
        if (expired != null) {
            return SilentSessions.expired(expired);
        }
        UserTurns turns = users.turns();
        Reconnects reconnects = users.reconnects();
        // Twice at most: when users are down and none is due, wait (untimed) for the first due, then connect it.
        for (int round = 0; round < 2; round++) {
            SampleResult lossOrConnect = startReconnects(turns, reconnects, inFlight, label);
            if (lossOrConnect != null) {
                return lossOrConnect;
            }
            int down = turns.downCount();
            if (down == 0) {
                return alive(label);
            }
            if (round == 1) {
                // not expected: the wait ends when a user is due; said, not looped on
                return Sample.failedAtOnce(
                        label,
                        Failure.NOT_CONNECTED,
                        down + " of " + count + " sessions down, none due to reconnect yet");
            }
            int due = turns.awaitNextDue();
            if (due >= 0) {
                cursor = due;
            }
        }
        return alive(label);
    }

    /**
     * Starts the reconnects that are due, round-robin from the cursor, until the connects under way fill up, and
     * returns the first to finish; or, first, the loss of a user no sample said yet; null when no user is due and
     * no connect is under way.
     */
    private SampleResult startReconnects(
            UserTurns turns, Reconnects reconnects, ConnectsInFlight inFlight, String label)
            throws InterruptedException {
        while (inFlight.hasRoom() && !inFlight.hasFinished()) {
            int index = turns.nextToConnect(cursor);
            if (index < 0) {
                break;
            }
            cursor = (index + 1) % users.size();
            if (reconnects.hasUnsaidLoss(index)) {
                reconnects.lossSaid(index);
                VirtualUser user = users.users().get(index);
                return Sample.failedAtOnce(label, Failure.CONNECTION_LOST, user.notConnectedReason() + ": " + user);
            }
            inFlight.start(index, label);
        }
        return inFlight.count() > 0 ? inFlight.awaitFirst(label) : null;
    }

    private SampleResult alive(String label) {
        return Sample.timed(label + ALIVE, result -> {
            long received = 0;
            for (VirtualUser user : users.users()) {
                received += user.messagesReceived();
            }
            int silent = SilentSessions.silentCount(users.users());
            int count = users.size() - silent;
            Sample.ok(
                    result,
                    (count == 1 && silent == 0
                                    ? "Session alive: " + users.users().get(0)
                                    : count + " sessions alive") + (silent == 0 ? "" : ", " + silent + " gone silent")
                            + ", "
                            + received + " messages received");
        });
    }
}
