package main

// Heart-beats in connect mode: the CONNECT asks for -heart-beat (cx,cy, milliseconds; the plugin's 10000,10000 by
// default), and each session whose CONNECTED agrees (sy above 0) writes one every max(cx, sy), as STOMP 1.2 says,
// so that a server which expects them keeps the session for the run. One ticker goroutine writes every session's, as
// the plugin's heart-beat wheels do, not a goroutine per session. The server's heart-beats are not read: they wait
// in the socket's receive buffer (the plugin reads and decodes its own; what that costs is the client's, not the
// server's).

import (
	"container/heap"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// heartBeats is a CONNECT's or CONNECTED's heart-beat header: what the side can send, what it wants to receive.
type heartBeats struct{ send, receive time.Duration }

// parseHeartBeats reads "cx,cy" (milliseconds, each 0 or more), the form of the flag and of the header's value.
func parseHeartBeats(text string) (heartBeats, error) {
	parts := strings.Split(text, ",")
	if len(parts) != 2 {
		return heartBeats{}, fmt.Errorf("heart-beat %q: two numbers of milliseconds, cx,cy", text)
	}
	var ms [2]int
	for i, part := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 0 {
			return heartBeats{}, fmt.Errorf("heart-beat %q: %q is no number of milliseconds", text, part)
		}
		ms[i] = n
	}
	return heartBeats{time.Duration(ms[0]) * time.Millisecond, time.Duration(ms[1]) * time.Millisecond}, nil
}

func (h heartBeats) header() string {
	return fmt.Sprintf("%d,%d", h.send.Milliseconds(), h.receive.Milliseconds())
}

// sendPeriod is how often the client writes a heart-beat once CONNECTED's header (server) answered its own (client):
// max(cx, sy), or 0 (none) when either is 0.
func sendPeriod(client, server heartBeats) time.Duration {
	if client.send == 0 || server.receive == 0 {
		return 0
	}
	return max(client.send, server.receive)
}

// connectedHeartBeats is the heart-beat header of a CONNECTED frame; none means 0,0.
func connectedHeartBeats(frame []byte) heartBeats {
	headers, _, _ := strings.Cut(string(frame), "\n\n")
	for _, line := range strings.Split(headers, "\n")[1:] {
		if value, found := strings.CutPrefix(line, "heart-beat:"); found {
			if h, err := parseHeartBeats(value); err == nil {
				return h
			}
		}
	}
	return heartBeats{}
}

// due is one session's next heart-beat.
type due struct {
	at     time.Time
	period time.Duration
	conn   *websocket.Conn
}

type dueHeap []due

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(a, b int) bool { return h[a].at.Before(h[b].at) }
func (h dueHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *dueHeap) Push(x any)        { *h = append(*h, x.(due)) }
func (h *dueHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

// heartBeater writes the sessions' heart-beats from one goroutine, waking every tick (the plugin's wheels tick every
// 25 ms) and writing those due, each then due again a period later.
type heartBeater struct {
	mu     sync.Mutex
	queue  dueHeap
	stop   chan struct{}
	done   chan struct{}
	failed int // writes that failed (a session the server closed), counted by the ticker alone
}

func startHeartBeater(tick time.Duration) *heartBeater {
	b := &heartBeater{stop: make(chan struct{}), done: make(chan struct{})}
	go b.run(tick)
	return b
}

// add schedules a session's heart-beats from now, if it has any (period above 0).
func (b *heartBeater) add(conn *websocket.Conn, period time.Duration) {
	if period <= 0 {
		return
	}
	b.mu.Lock()
	heap.Push(&b.queue, due{at: time.Now().Add(period), period: period, conn: conn})
	b.mu.Unlock()
}

func (b *heartBeater) run(tick time.Duration) {
	defer close(b.done)
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	var batch []due
	for {
		select {
		case <-b.stop:
			return
		case now := <-ticker.C:
			b.mu.Lock()
			for b.queue.Len() > 0 && !b.queue[0].at.After(now) {
				batch = append(batch, heap.Pop(&b.queue).(due))
			}
			b.mu.Unlock()
			for i := range batch {
				d := &batch[i]
				// one stuck socket must not hold every other session's heart-beat back for long
				d.conn.SetWriteDeadline(now.Add(time.Second))
				if err := d.conn.WriteMessage(websocket.TextMessage, []byte("\n")); err != nil {
					b.failed++
					d.period = 0 // not scheduled again
				}
				d.at = d.at.Add(d.period)
			}
			b.mu.Lock()
			for _, d := range batch {
				if d.period > 0 {
					heap.Push(&b.queue, d)
				}
			}
			b.mu.Unlock()
			batch = batch[:0]
		}
	}
}

// close stops the ticker and waits for it: the sessions' writers are the caller's again.
func (b *heartBeater) close() int {
	close(b.stop)
	<-b.done
	return b.failed
}
