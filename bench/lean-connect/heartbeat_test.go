package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestHeartBeatsAreTwoWholeNumbersOfMilliseconds(t *testing.T) {
	h, err := parseHeartBeats("10000,0")
	if err != nil || h.send != 10*time.Second || h.receive != 0 || h.header() != "10000,0" {
		t.Fatalf("10000,0: %v %v", h, err)
	}
	for _, bad := range []string{"", "10000", "1,2,3", "-1,0", "x,0"} {
		if _, err := parseHeartBeats(bad); err == nil || !strings.Contains(err.Error(), "heart-beat") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestTheClientWritesEveryMaxOfItsOwnAndWhatTheServerWants(t *testing.T) {
	ask := heartBeats{10 * time.Second, 10 * time.Second}
	cases := []struct {
		connected string
		want      time.Duration
	}{
		{"CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\x00", 0},
		{"CONNECTED\nversion:1.2\n\n\x00", 0}, // no header: 0,0
		{"CONNECTED\nversion:1.2\nheart-beat:10000,10000\n\n\x00", 10 * time.Second},
		{"CONNECTED\nheart-beat:4000,25000\nserver:x\n\n\x00", 25 * time.Second},
		{"CONNECTED\nheart-beat:4000,5000\n\nheart-beat:1,99999\x00", 10 * time.Second}, // a body is no header
	}
	for _, c := range cases {
		if got := sendPeriod(ask, connectedHeartBeats([]byte(c.connected))); got != c.want {
			t.Errorf("%q: %v, want %v", c.connected, got, c.want)
		}
	}
	if got := sendPeriod(heartBeats{}, heartBeats{10 * time.Second, 10 * time.Second}); got != 0 {
		t.Errorf("asked 0,0: %v", got)
	}
}

// One ticker writes each session's heart-beat every period, and stops when closed.
func TestTheHeartBeaterWritesEverySessionsHeartBeatsFromOneTicker(t *testing.T) {
	received := make(chan string, 100)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			_, message, err := conn.ReadMessage()
			if err != nil {
				return
			}
			received <- r.URL.Path + string(message)
		}
	}))
	defer server.Close()
	url := "ws" + strings.TrimPrefix(server.URL, "http")
	beater := startHeartBeater(5 * time.Millisecond)
	for _, path := range []string{"/a", "/b"} {
		conn, _, err := websocket.DefaultDialer.Dial(url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		beater.add(conn, 40*time.Millisecond)
	}
	// each session's second heart-beat comes, whatever the machine's pace (bounded: 5 s)
	counts := map[string]int{}
	deadline := time.After(5 * time.Second)
	for counts["/a\n"] < 2 || counts["/b\n"] < 2 {
		select {
		case got := <-received:
			counts[got]++
		case <-deadline:
			t.Fatalf("heart-beats after 5 s: %v", counts)
		}
	}
	if failed := beater.close(); failed != 0 {
		t.Errorf("failed writes: %d", failed)
	}
	if len(counts) != 2 {
		t.Errorf("only heart-beats, on both sessions: %v", counts)
	}
}
