// lean-connect opens STOMP sessions over a plain WebSocket as fast as a server accepts them: upgrade, CONNECT,
// wait for CONNECTED, with a bounded number of connects in flight. It is the bench's yardstick for connect.jmx's
// connect rate (bench/generator_efficiency.py, part connects, side lean:K): what the server gives a client
// that does nothing else, on the same machine. With -mode echo it runs the closed-loop echo instead (echo.go).
// With -compress it offers permessage-deflate (gorilla's offer: both no_context_takeover parameters, not Chrome's
// "permessage-deflate; client_max_window_bits") and writes its frames compressed where the server agreed; the
// count of sessions that agreed is in its figures (bench/server_memory.py reads it). In connect mode its CONNECT asks
// for -heart-beat (the plugin's 10000,10000 by default; 0,0 for none) and it writes its own where the server agreed
// (heartbeat.go).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

func main() {
	url := flag.String("url", "ws://127.0.0.1:15674/ws", "the STOMP-over-WebSocket endpoint")
	sessions := flag.Int("sessions", 1000, "sessions to open")
	inFlight := flag.Int("in-flight", 64, "connects under way at once")
	login := flag.String("login", "guest", "CONNECT's login")
	passcode := flag.String("passcode", "guest", "CONNECT's passcode")
	host := flag.String("host", "/", "CONNECT's host header (RabbitMQ's virtual host)")
	timeout := flag.Duration("timeout", 30*time.Second, "one connect's limit")
	hold := flag.Duration("hold", 0, "how long to hold the sessions after the last one connected")
	mode := flag.String("mode", "connect", "connect (open sessions) or echo (each user's closed-loop round trips)")
	pause := flag.Duration("pause", time.Second, "echo: a user's pause after its reply (0: unthrottled)")
	replyTimeout := flag.Duration("reply-timeout", 5*time.Second, "echo: a reply's limit (then LOST; the user ends)")
	warmup := flag.Duration("warmup", 20*time.Second, "echo: from the last connect to the window")
	window := flag.Duration("window", 20*time.Second, "echo: the steady window measured")
	serverPid := flag.Int("server-pid", 0, "echo: the broker's pid for its CPU (0: the process named beam.smp)")
	queuePrefix := flag.String("queue-prefix", "/queue/lean-echo.", "echo: user i sends to and subscribes <prefix>i")
	compress := flag.Bool("compress", false, "connect: offer permessage-deflate (server_no_context_takeover; "+
		"client_no_context_takeover) and write compressed where agreed")
	heartBeat := flag.String("heart-beat", "10000,10000", "connect: CONNECT's heart-beat cx,cy in ms (the plugin's "+
		"default; 0,0: none); the client writes its own every max(cx, sy) where CONNECTED agreed")
	flag.Parse()
	if *mode == "echo" {
		runEcho(echoOptions{url: *url, login: *login, passcode: *passcode, host: *host, users: *sessions,
			inFlight: *inFlight, pause: *pause, replyTimeout: *replyTimeout, warmup: *warmup, window: *window,
			timeout: *timeout, serverPid: *serverPid, queuePrefix: *queuePrefix})
		return
	}
	if *mode != "connect" {
		fmt.Fprintf(os.Stderr, "-mode %q: connect or echo\n", *mode)
		os.Exit(2)
	}
	asked, err := parseHeartBeats(*heartBeat)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}

	frame := []byte(fmt.Sprintf("CONNECT\naccept-version:1.2\nhost:%s\nlogin:%s\npasscode:%s\nheart-beat:%s\n\n\x00",
		*host, *login, *passcode, asked.header()))
	beater := startHeartBeater(25 * time.Millisecond)
	dialer := websocket.Dialer{HandshakeTimeout: *timeout, Subprotocols: []string{"v12.stomp"},
		EnableCompression: *compress}

	var mu sync.Mutex
	var conns []*websocket.Conn
	var times []time.Duration
	failed, compressed, finished := 0, 0, 0
	var halfway time.Duration // the process's CPU when half the sessions had finished connecting
	agreed := ""
	var firstErr error
	slots := make(chan struct{}, *inFlight)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < *sessions; i++ {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			began := time.Now()
			conn, extensions, connected, err := connect(dialer, *url, frame, *timeout)
			took := time.Since(began)
			mu.Lock()
			defer mu.Unlock()
			finished++
			if finished == *sessions/2 {
				halfway = cpuSoFar()
			}
			if err != nil {
				failed++
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			conns = append(conns, conn)
			times = append(times, took)
			beater.add(conn, sendPeriod(asked, connectedHeartBeats(connected)))
			if strings.Contains(extensions, "permessage-deflate") {
				compressed++
				if agreed == "" {
					agreed = extensions
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	cpu := cpuSoFar()
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	pct := func(p float64) float64 {
		if len(times) == 0 {
			return 0
		}
		return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000
	}
	// One line of JSON-ish key=value pairs: the bench parses it.
	// cpu_us_second_half: per session of the second half of the sessions, as ConnectFloor and connects.py give it
	// (no JIT here, but the same figure beside theirs)
	fmt.Printf("connected=%d failed=%d wall_s=%.3f per_s=%.1f cpu_s=%.3f cpu_us_per_session=%.1f p50_ms=%.1f p99_ms=%.1f compressed=%d cpu_us_second_half=%.1f\n",
		len(conns), failed, wall.Seconds(), float64(len(conns))/wall.Seconds(), cpu.Seconds(),
		float64(cpu.Microseconds())/float64(max(len(conns), 1)), pct(0.5), pct(0.99), compressed,
		float64((cpu-halfway).Microseconds())/float64(max(*sessions-*sessions/2, 1)))
	if firstErr != nil {
		fmt.Fprintln(os.Stderr, "first failure:", firstErr)
	}
	if agreed != "" {
		fmt.Fprintln(os.Stderr, "the server agreed to:", agreed)
	}
	time.Sleep(*hold)
	if lost := beater.close(); lost > 0 {
		fmt.Fprintln(os.Stderr, "heart-beats that could not be written:", lost)
	}
	for _, c := range conns {
		c.WriteMessage(websocket.TextMessage, []byte("DISCONNECT\n\n\x00"))
		c.Close()
	}
}

// cpuSoFar is the process's CPU time so far, user and system.
func cpuSoFar() time.Duration {
	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// connect opens one session; it returns the Sec-WebSocket-Extensions the server's 101 agreed to (empty: none) and
// the CONNECTED frame. Where permessage-deflate was agreed, the CONNECT goes compressed (gorilla's
// EnableWriteCompression, on here explicitly) and the CONNECTED comes compressed from the server: its deflater and
// inflater have both worked.
func connect(dialer websocket.Dialer, url string, frame []byte, timeout time.Duration) (*websocket.Conn, string, []byte,
	error) {
	conn, response, err := dialer.Dial(url, http.Header{})
	if err != nil {
		return nil, "", nil, err
	}
	extensions := response.Header.Get("Sec-WebSocket-Extensions")
	conn.EnableWriteCompression(dialer.EnableCompression)
	conn.SetReadDeadline(time.Now().Add(timeout))
	if err := conn.WriteMessage(websocket.TextMessage, frame); err != nil {
		conn.Close()
		return nil, "", nil, err
	}
	_, reply, err := conn.ReadMessage()
	if err != nil {
		conn.Close()
		return nil, "", nil, err
	}
	if !bytes.HasPrefix(reply, []byte("CONNECTED")) {
		conn.Close()
		return nil, "", nil, fmt.Errorf("not CONNECTED: %.200q", reply)
	}
	conn.SetReadDeadline(time.Time{})
	return conn, extensions, reply, nil
}
