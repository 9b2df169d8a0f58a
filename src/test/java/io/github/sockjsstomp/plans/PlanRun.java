package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One headless run of a plan in jmx/ by a real JMeter 5.6.3 (target/jmeter, laid out by scripts/jmeter-home.sh
 * in pre-integration-test) as a subprocess, as a user types it: {@code bin/jmeter -n -t jmx/<plan>.jmx -l ...}
 * with {@code -J} properties only. Holds the results file's rows and the timing log the run wrote.
 */
record PlanRun(Path dir, List<Map<String, String>> rows, Path timingLog) {

    static final long TIMEOUT_SECONDS = 180;
    static final String WARM_UP = "sockjsstomp.warmUp";
    static final String FORCE_EXIT = "jmeterengine.force.system.exit";
    static final String TIMING_HEADER = "sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,"
            + "bytes,detail,mode,run,sent_epoch_us,engine,version,sender_user,receiver_user,receipt_us,redelivered_after_us";

    static Path jmeterHome() {
        Path home = Path.of(System.getProperty("jmeter.home", "target/jmeter")).toAbsolutePath();
        assertThat(home.resolve("bin/jmeter"))
                .as("JMeter home (scripts/jmeter-home.sh)")
                .isExecutable();
        return home;
    }

    static Path projectRoot() {
        return Path.of(System.getProperty("project.root", ".")).toAbsolutePath();
    }

    static Path planFile(String plan) {
        return projectRoot().resolve("jmx").resolve(plan + ".jmx");
    }

    /** Starts the run; {@link Launch#await()} waits for it (bounded) and reads what it wrote. */
    static Launch launch(Path runDir, String plan, boolean report, List<String> properties) throws IOException {
        return launch(runDir, plan, report, properties, List.of());
    }

    /** As above, with these JVM options for JMeter ({@code -D...}, as a user puts them in JVM_ARGS). */
    static Launch launch(Path runDir, String plan, boolean report, List<String> properties, List<String> jvmArgs)
            throws IOException {
        return launch(jmeterHome(), runDir, plan, report, properties, jvmArgs);
    }

    /** As above, by the JMeter of another home (one the Plugins Manager installed the plugin into). */
    static Launch launch(
            Path home, Path runDir, String plan, boolean report, List<String> properties, List<String> jvmArgs)
            throws IOException {
        Files.createDirectories(runDir);
        Path jtl = runDir.resolve(plan + ".jtl");
        Path timingLog = runDir.resolve(plan + "-timing.csv");
        List<String> command = new ArrayList<>(List.of(
                home.resolve("bin/jmeter").toString(),
                "-n",
                "-t",
                planFile(plan).toString(),
                "-l",
                jtl.toString(),
                "-j",
                runDir.resolve("jmeter.log").toString(),
                "-JtimingLog=" + timingLog));
        properties.stream().map(p -> "-J" + p).forEach(command::add);
        if (properties.stream().noneMatch(p -> p.startsWith(WARM_UP + "="))) {
            // The warm-up runs inside the thread group's duration: seconds of JIT work on a busy machine, which a run
            // of a few seconds cannot spare (it ended with no message sent). The tests of the warm-up ask for it.
            command.add("-J" + WARM_UP + "=false");
        }
        if (properties.stream().noneMatch(p -> p.startsWith(FORCE_EXIT + "="))) {
            // JMeter's engine keeps an idle worker thread alive for a second after the test (its executor's
            // keep-alive): its JVM exits 1.0 s sooner so, everything written (the engine exits after the test
            // listeners, the samplers' teardown and the report). README's lines, run as written, keep the plain exit.
            command.add("-J" + FORCE_EXIT + "=true");
        }
        if (report) {
            command.addAll(List.of("-e", "-o", runDir.resolve("report").toString()));
        }
        Path console = runDir.resolve("console.txt");
        // The run's own directory as working directory: what JMeter writes relative to it (the report generator's
        // temp/ directory, which it deletes when done) must not be shared by runs side by side.
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(runDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile());
        // a small heap (bin/setenv.sh would take 4 GB), the plugin's log next to jmeter.log and the test's temporary
        // directory (in the build directory)
        builder.environment().put("HEAP", "-Xms256m -Xmx768m");
        builder.environment()
                .put(
                        "JVM_ARGS",
                        String.join(" ", jvmArgs) + " -Dsockjsstomp.logfile=" + runDir.resolve("sockjs-stomp.log") + " "
                                + tmpDirArgument());
        return new Launch(builder.start(), command, runDir, jtl, timingLog, console);
    }

    /** JMeter's temporary files where the test JVM keeps its own (the build directory's it-tmp under failsafe). */
    static String tmpDirArgument() {
        return "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir");
    }

    /** A run that must exit 0 and write samples, failed or not. */
    static PlanRun run(Path runDir, String plan, boolean report, List<String> properties) throws Exception {
        return launch(runDir, plan, report, properties).await();
    }

    /** A run that must exit 0 with every sample successful. */
    static PlanRun runClean(Path runDir, String plan, boolean report, List<String> properties) throws Exception {
        PlanRun run = run(runDir, plan, report, properties);
        assertThat(run.rows)
                .allSatisfy(r -> assertThat(r.get("success"))
                        .as(
                                "%s %s %s (%s)",
                                r.get("label"), r.get("responseCode"), r.get("responseMessage"), r.get("threadName"))
                        .isEqualTo("true"));
        return run;
    }

    record Launch(Process process, List<String> command, Path dir, Path jtl, Path timingLog, Path console) {

        /** Waits (bounded) until the running plan has written more than this many timing records. */
        void awaitTimingRecords(int records) throws Exception {
            long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
            while (System.nanoTime() < deadline && process.isAlive()) {
                if (Files.exists(timingLog) && Files.readAllLines(timingLog).size() > records) {
                    return;
                }
                Thread.sleep(100);
            }
            throw new AssertionError(
                    "no " + records + " timing records in " + timingLog + "; console: " + Files.readString(console));
        }

        PlanRun await() throws Exception {
            int exit = waitFor(process, command, console);
            assertThat(exit)
                    .as("jmeter exit status; console: %s", Files.readString(console))
                    .isZero();
            PlanRun run = new PlanRun(dir, readCsv(jtl), timingLog);
            assertThat(run.rows).as("samples in " + jtl).isNotEmpty();
            return run;
        }
    }

    /** Waits at most {@link #TIMEOUT_SECONDS} for a process, killing it and its children after that. */
    static int waitFor(Process process, List<String> command, Path output) throws Exception {
        return waitFor(process, command, output, TIMEOUT_SECONDS);
    }

    /** Waits at most this long for a process (a build of the plugin), killing it and its children after that. */
    static int waitFor(Process process, List<String> command, Path output, long timeoutSeconds) throws Exception {
        Optional<Instant> started = process.info().startInstant();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            fail("%s still running after %d s; output: %s", command, timeoutSeconds, Files.readString(output));
        }
        // One line per launch in the build's output, so the suite's JMeter launches can be counted and timed per
        // class (the suite's time is mostly theirs): never asserted on.
        System.out.printf(
                "[launch] %s exit %d after %s s%n",
                output.getParent().getFileName(),
                process.exitValue(),
                started.map(s -> String.format(
                                "%.1f", Duration.between(s, Instant.now()).toMillis() / 1000.0))
                        .orElse("?"));
        return process.exitValue();
    }

    /** Samples per label, counted as {@link #count} does. */
    Map<String, Long> labels() {
        return rows.stream()
                .collect(Collectors.groupingBy(
                        r -> r.get("label"), TreeMap::new, Collectors.summingLong(PlanRun::sampleCount)));
    }

    /**
     * The samples of a label, as JMeter's summariser counts them: the sum of the rows' SampleCount where the results
     * file has that column (a scheduled sender's row is one tick of SampleCount messages), else the rows.
     */
    long count(String label) {
        return rows.stream()
                .filter(r -> r.get("label").equals(label))
                .mapToLong(PlanRun::sampleCount)
                .sum();
    }

    /** A row's SampleCount, 1 where the results file does not save it. */
    static long sampleCount(Map<String, String> row) {
        String count = row.get("SampleCount");
        return count == null || count.isEmpty() ? 1 : Long.parseLong(count);
    }

    /** Samples per thread name, for one label. */
    Map<String, Long> threads(String label) {
        return rows.stream()
                .filter(r -> r.get("label").equals(label))
                .collect(Collectors.groupingBy(r -> r.get("threadName"), TreeMap::new, Collectors.counting()));
    }

    /**
     * The timing log's records that finished (sent + latency) at or after the last reply row's stamp: those a run's
     * drain finished after its replies thread stopped, or still in that thread's last batch, which no reply row shows.
     */
    static long finishedFromTheLastReplyRow(List<Map<String, String>> rows, Path timingLog) throws IOException {
        long last = rows.stream()
                .filter(r -> r.get("label").startsWith("reply "))
                .mapToLong(r -> Long.parseLong(r.get("timeStamp")))
                .max()
                .orElse(0);
        return Files.readAllLines(timingLog, StandardCharsets.UTF_8).stream()
                .skip(1)
                .map(line -> line.split(",", -1))
                .filter(r -> !r[1].equals("REDELIVERED")) // no answer, so never a reply row
                .filter(r -> (Long.parseLong(r[11]) + Long.parseLong(r[3])) / 1000 >= last)
                .count();
    }

    /** The messages the run sent, once its books say some were and every one was answered. */
    long sentAllAnswered() throws IOException {
        BooksLine books = books();
        assertThat(books.sent()).as(books.line()).isPositive();
        assertThat(books.allAnswered(books.sent())).as(books.line()).isTrue();
        return books.sent();
    }

    /** The timing log's records, split into columns (no field of a record holds a comma in these tests). */
    List<String[]> timing() throws IOException {
        assertThat(timingLog).exists();
        List<String> lines = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0)).isEqualTo(TIMING_HEADER);
        return lines.subList(1, lines.size()).stream()
                .map(line -> line.split(",", -1))
                .toList();
    }

    /** The run's books, as its end wrote them to jmeter.log. */
    BooksLine books() throws IOException {
        Path log = dir.resolve("jmeter.log");
        return BooksLine.in(Files.readString(log, StandardCharsets.UTF_8), log.toString());
    }

    /**
     * The books line a run's end writes to its log, by name: {@code STOMP timing books: sent=5 answered=3 lost=1
     * failed=1 pending=0 (answer records=3, extra copies=0, late replies=1 up to 2600 ms after their send,
     * untimed=0) receipts=5 no-receipt=2, timing log unwritten=4; latency us: ...}, where the late replies' lateness,
     * the receipts and the unwritten records appear only when there are any.
     *
     * @param line the whole line, for what the figures do not name (the latency percentiles)
     */
    record BooksLine(
            long sent,
            long answered,
            long lost,
            long failed,
            long pending,
            long lateReplies,
            long lateMaxMillis,
            long receipts,
            long noReceipts,
            long unwritten,
            String line) {

        private static final Pattern COUNTS = Pattern.compile(
                "STOMP timing books: sent=(\\d+) answered=(\\d+) lost=(\\d+) failed=(\\d+) pending=(\\d+) .*");
        private static final Pattern LATE =
                Pattern.compile("late replies=(\\d+)(?: up to (\\d+) ms after their send)?");
        private static final Pattern RECEIPTS = Pattern.compile(" receipts=(\\d+) no-receipt=(\\d+)");
        private static final Pattern UNWRITTEN = Pattern.compile(", timing log unwritten=(\\d+);");
        private static final Pattern REDELIVERIES = Pattern.compile(", redeliveries=(\\d+)");

        /** The first books line in {@code log} (a run that sent nothing writes none), read from {@code where}. */
        static BooksLine in(String log, String where) {
            Matcher counts = COUNTS.matcher(log);
            assertThat(counts.find()).as("a books line in %s", where).isTrue();
            String line = counts.group();
            Matcher late = LATE.matcher(line);
            assertThat(late.find()).as("late replies in %s", line).isTrue();
            Matcher receipts = RECEIPTS.matcher(line);
            boolean receipted = receipts.find();
            Matcher unwritten = UNWRITTEN.matcher(line);
            boolean failedFile = unwritten.find();
            return new BooksLine(
                    Long.parseLong(counts.group(1)),
                    Long.parseLong(counts.group(2)),
                    Long.parseLong(counts.group(3)),
                    Long.parseLong(counts.group(4)),
                    Long.parseLong(counts.group(5)),
                    Long.parseLong(late.group(1)),
                    late.group(2) == null ? 0 : Long.parseLong(late.group(2)),
                    receipted ? Long.parseLong(receipts.group(1)) : 0,
                    receipted ? Long.parseLong(receipts.group(2)) : 0,
                    failedFile ? Long.parseLong(unwritten.group(1)) : 0,
                    line);
        }

        /** Whether every one of {@code messages} was answered: none lost, failed or pending. */
        boolean allAnswered(long messages) {
            return sent == messages && answered == messages && lost == 0 && failed == 0 && pending == 0;
        }

        /** The messages delivered again the line counts beside the books (0 when it names none). */
        long redeliveries() {
            Matcher counted = REDELIVERIES.matcher(line);
            return counted.find() ? Long.parseLong(counted.group(1)) : 0;
        }

        /** sent = answered + lost + failed + pending, and the line does not say otherwise. */
        boolean balanced() {
            return sent == answered + lost + failed + pending && !line.contains(" UNBALANCED");
        }
    }

    /** RFC 4180 CSV with a header line, as JMeter writes it (quoted fields may hold commas, quotes, newlines). */
    static List<Map<String, String>> readCsv(Path file) throws IOException {
        List<List<String>> records = parseCsv(Files.readString(file, StandardCharsets.UTF_8));
        assertThat(records).as("header of " + file).isNotEmpty();
        List<String> header = records.get(0);
        assertThat(header).contains("label", "success", "threadName", "responseCode");
        List<Map<String, String>> rows = new ArrayList<>();
        for (List<String> record : records.subList(1, records.size())) {
            assertThat(record).as("fields of %s", record).hasSameSizeAs(header);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), record.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    static List<List<String>> parseCsv(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            any = true;
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                record.add(field.toString());
                field.setLength(0);
                records.add(record);
                record = new ArrayList<>();
                any = false;
            } else {
                field.append(c);
            }
        }
        if (any) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }
}
