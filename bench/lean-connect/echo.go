package main

// The echo mode: N users, each its own session subscribed to its own queue, sending to it, waiting for its
// message, pausing, again (the closed loop echo.jmx runs against RabbitMQ). It is the yardstick for the
// closed part of bench/generator_efficiency.py: round trips a second the broker answers on this machine,
// with the client's CPU and the broker's per round trip over a steady window.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

type echoOptions struct {
	url, login, passcode, host string
	users, inFlight            int
	pause, replyTimeout        time.Duration
	warmup, window             time.Duration
	timeout                    time.Duration
	serverPid                  int
	queuePrefix                string
}

// window gathers what the users did while the steady window is open.
type window struct {
	open      atomic.Bool
	mu        sync.Mutex
	latencies []time.Duration
	lost      atomic.Int64
	failed    atomic.Int64
}

func (w *window) answered(took time.Duration) {
	if !w.open.Load() {
		return
	}
	w.mu.Lock()
	w.latencies = append(w.latencies, took)
	w.mu.Unlock()
}

func runEcho(o echoOptions) {
	frame := []byte(fmt.Sprintf("CONNECT\naccept-version:1.2\nhost:%s\nlogin:%s\npasscode:%s\nheart-beat:0,0\n\n\x00",
		o.host, o.login, o.passcode))
	dialer := websocket.Dialer{HandshakeTimeout: o.timeout, Subprotocols: []string{"v12.stomp"},
		ReadBufferSize: 1024, WriteBufferSize: 1024}
	if o.serverPid == 0 {
		o.serverPid = findProcess("beam.smp")
	}

	var w window
	var connected, connectFailed atomic.Int64
	stop := make(chan struct{})
	// Users connect and subscribe, then wait for every connect to end: a broker saturated by the round trips of
	// the users already connected accepts the rest a few a second (2,000 unthrottled users: 3 connects/s).
	gate := make(chan struct{})
	var users sync.WaitGroup
	slots := make(chan struct{}, o.inFlight)
	start := time.Now()
	var connectsDone sync.WaitGroup
	for i := 1; i <= o.users; i++ {
		slots <- struct{}{}
		connectsDone.Add(1)
		users.Add(1)
		go func(user int) {
			defer users.Done()
			conn, _, _, err := connect(dialer, o.url, frame, o.timeout)
			<-slots
			connectsDone.Done()
			if err != nil {
				connectFailed.Add(1)
				return
			}
			defer conn.Close()
			connected.Add(1)
			echoLoop(conn, user, o, &w, gate, stop)
		}(i)
	}
	connectsDone.Wait()
	connectWall := time.Since(start)
	close(gate)

	time.Sleep(o.warmup)
	cpu0, server0, t0 := selfCPU(), processCPU(o.serverPid), time.Now()
	w.open.Store(true)
	time.Sleep(o.window)
	w.open.Store(false)
	cpu1, server1, t1 := selfCPU(), processCPU(o.serverPid), time.Now()
	close(stop)
	users.Wait()

	w.mu.Lock()
	lat := w.latencies
	w.mu.Unlock()
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	n := float64(max(len(lat), 1))
	seconds := t1.Sub(t0).Seconds()
	// One line of key=value pairs: the bench parses it.
	fmt.Printf("users=%d connected=%d connect_failed=%d connect_s=%.1f window_s=%.1f round_trips=%d per_s=%.1f "+
		"lost=%d failed=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f cpu_us_per_round_trip=%.1f "+
		"server_cpu_us_per_round_trip=%.1f cores_client=%.2f cores_server=%.2f\n",
		o.users, connected.Load(), connectFailed.Load(), connectWall.Seconds(), seconds, len(lat),
		float64(len(lat))/seconds, w.lost.Load(), w.failed.Load(), pct(0.5), pct(0.99), pct(1),
		(cpu1-cpu0).Seconds()*1e6/n, (server1-server0).Seconds()*1e6/n,
		(cpu1-cpu0).Seconds()/seconds, (server1-server0).Seconds()/seconds)
}

// echoLoop is one user: SUBSCRIBE to its queue, then SEND, wait for the MESSAGE carrying that send's sequence,
// pause, again, until stop. A reply that does not come within replyTimeout is LOST and the user ends (gorilla's
// connection is unusable after a read error). After the gate opens, user i sends first i/users of a pause later,
// so the users' first messages spread over one pause instead of leaving in one burst.
func echoLoop(conn *websocket.Conn, user int, o echoOptions, w *window, gate, stop chan struct{}) {
	queue := fmt.Sprintf("%s%d", o.queuePrefix, user)
	subscribe := fmt.Sprintf("SUBSCRIBE\nid:0\ndestination:%s\nack:auto\n\n\x00", queue)
	if err := conn.WriteMessage(websocket.TextMessage, []byte(subscribe)); err != nil {
		w.failed.Add(1)
		return
	}
	<-gate
	time.Sleep(time.Duration(int64(o.pause) * int64(user) / int64(o.users)))
	for seq := 1; ; seq++ {
		select {
		case <-stop:
			conn.WriteMessage(websocket.TextMessage, []byte("DISCONNECT\n\n\x00"))
			return
		default:
		}
		body := "u" + strconv.Itoa(user) + "-" + strconv.Itoa(seq)
		send := "SEND\ndestination:" + queue + "\ncontent-length:" + strconv.Itoa(len(body)) + "\n\n" + body + "\x00"
		began := time.Now()
		if err := conn.WriteMessage(websocket.TextMessage, []byte(send)); err != nil {
			w.failed.Add(1)
			return
		}
		conn.SetReadDeadline(began.Add(o.replyTimeout))
		for {
			_, reply, err := conn.ReadMessage()
			if err != nil {
				if ne, ok := err.(interface{ Timeout() bool }); ok && ne.Timeout() {
					w.lost.Add(1)
				} else {
					w.failed.Add(1)
				}
				return
			}
			if bytes.HasPrefix(reply, []byte("ERROR")) {
				w.failed.Add(1)
				return
			}
			if bytes.HasPrefix(reply, []byte("MESSAGE")) && bytes.HasSuffix(bytes.TrimRight(reply, "\x00\n"), []byte("\n"+body)) {
				w.answered(time.Since(began))
				break
			}
		}
		if o.pause > 0 {
			select {
			case <-stop:
			case <-time.After(o.pause):
			}
		}
	}
}

func selfCPU() time.Duration {
	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// processCPU is a process's user + system CPU from /proc/<pid>/stat (clock ticks of USER_HZ, 100 on Linux).
func processCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

func findProcess(comm string) int {
	paths, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, p := range paths {
		if name, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(name)) == comm {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	return 0
}
