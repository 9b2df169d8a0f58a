package io.github.sockjsstomp.steps;

import java.util.List;

/**
 * The answer of a stepped run in one line, and each step's verdict in one line as it ends: what the last step
 * before the first break held, where it broke and whose limit that was.
 */
public final class CapacityAnswer {

    private CapacityAnswer() {}

    /** One step's line: {@code stomp step 2 of 4: 4,000 msg/s held (p99 38 ms, 0 lost, achieved 3,998 msg/s)}. */
    public static String stepLine(StepFigures f, Verdict verdict, int steps) {
        String what = switch (verdict.verdict()) {
            case Verdict.HELD -> "held";
            case Verdict.BROKE -> "broke (" + whose(f.kind(), verdict) + ": " + verdict.reason() + ")";
            default -> "unchecked";
        };
        String generator = !verdict.broke() && !verdict.reason().isEmpty() ? "; " + verdict.reason() : "";
        return "stomp step " + f.step() + " of " + steps + ": " + StepPlan.format(f.offered()) + " " + f.kind().unit
                + " " + what + " (" + figures(f) + ")" + generator;
    }

    /** The run's answer, from its steps in order with their verdicts. */
    public static String line(List<StepFigures> steps, List<Verdict> verdicts) {
        if (steps.isEmpty()) {
            return "stomp capacity: no step ended";
        }
        int broke = -1;
        for (int i = 0; i < verdicts.size(); i++) {
            if (verdicts.get(i).broke()) {
                broke = i;
                break;
            }
        }
        StepFigures last = steps.get(steps.size() - 1);
        String unit = " " + last.kind().unit;
        if (Verdict.UNCHECKED.equals(verdicts.get(0).verdict())) {
            return "stomp capacity: not checked (no service level given); " + steps.size() + " steps up to "
                    + StepPlan.format(last.offered()) + unit + " (" + figures(last) + ")";
        }
        if (broke < 0) {
            return "stomp capacity: held " + StepPlan.format(last.offered()) + unit + " (" + figures(last)
                    + "), the last step: no knee found";
        }
        StepFigures knee = steps.get(broke);
        Verdict verdict = verdicts.get(broke);
        String held = broke == 0
                ? "held no step"
                : "held " + StepPlan.format(steps.get(broke - 1).offered()) + unit + " ("
                        + figures(steps.get(broke - 1)) + ")";
        String whose = switch (verdict.limit()) {
            case Verdict.GENERATOR ->
                "the generator's limit: " + after(verdict.reason(), "generator: ")
                        + "; the server's figures say nothing here";
            case Verdict.MACHINE -> "the machine's limit: " + after(verdict.reason(), "machine: ");
            default ->
                knee.kind() == StepKind.CONSUME
                        ? "the consumers too slow for the service level: the generator kept its pace"
                        : "the server's limit: the generator kept its pace";
        };
        return "stomp capacity: " + held + "; broke at " + StepPlan.format(knee.offered()) + unit + ": "
                + brokeFigures(knee) + " (" + whose + ")";
    }

    /**
     * Whose limit a broken step met. Consume steps slow the consumers on purpose: a step they break is the consumers'
     * time per message the service level cannot take, not a limit the server showed.
     */
    private static String whose(StepKind kind, Verdict verdict) {
        return switch (verdict.limit()) {
            case Verdict.GENERATOR -> "the generator's limit";
            case Verdict.MACHINE -> "the machine's limit";
            default -> kind == StepKind.CONSUME ? "the consumers too slow" : "the server's limit";
        };
    }

    private static String after(String reason, String prefix) {
        return reason.substring(reason.indexOf(prefix) + prefix.length());
    }

    /** The figures a step's line shows. */
    static String figures(StepFigures f) {
        StringBuilder text = new StringBuilder();
        if (f.sent() != null) {
            text.append(latency(f))
                    .append(", ")
                    .append(f.lost() == 0 ? "0" : percent(f.lostPercent()) + "%")
                    .append(" lost");
            if (f.failed() > 0) {
                text.append(", ").append(percent(f.failedPercent())).append("% failed");
            }
            if (f.kind().sendsAtARate()) {
                text.append(", achieved ")
                        .append(StepPlan.format(Math.round(f.achieved())))
                        .append(" msg/s");
            }
        }
        if (f.kind() == StepKind.USERS || f.connects() > 0) {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(f.users()).append(" online");
            if (f.connects() > 0) {
                text.append(", ").append(percent(f.connectFailedPercent())).append("% of connects failed");
                if (f.connectP99Millis() != null) {
                    text.append(", connect p99 ")
                            .append(StepPlan.format(f.connectP99Millis()))
                            .append(" ms");
                }
            }
        }
        if (f.heartbeatMisses() > 0) {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(ServiceLevel.heartbeatMissesText(f.heartbeatMisses()));
        }
        return text.length() == 0 ? "no figures" : text.toString();
    }

    private static String brokeFigures(StepFigures f) {
        if (f.kind() == StepKind.USERS && f.connects() > 0) {
            String connects = percent(f.connectFailedPercent()) + "% of connects failed";
            if (f.connectP99Millis() != null) {
                connects += ", connect p99 " + StepPlan.format(f.connectP99Millis()) + " ms";
            }
            return f.heartbeatMisses() == 0
                    ? connects
                    : connects + ", " + ServiceLevel.heartbeatMissesText(f.heartbeatMisses());
        }
        if (f.sent() == null) {
            return figures(f);
        }
        String text = latency(f) + ", " + percent(f.lostPercent()) + "% lost";
        return f.failed() > 0 ? text + ", " + percent(f.failedPercent()) + "% failed" : text;
    }

    private static String latency(StepFigures f) {
        return f.p99Micros() == null
                ? "no answer"
                : "p99 " + StepPlan.format(Math.round(f.p99Micros() / 1000.0)) + " ms";
    }

    private static String percent(double value) {
        return ServiceLevel.percentText(value);
    }
}
