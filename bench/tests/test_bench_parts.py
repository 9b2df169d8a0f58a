"""What each part turns its raw rows and readings into: per session added, the connects' window, latency."""

import pytest

import closed
import connects
import floors
import held


def test_held_figures_are_per_session_added_between_the_two_sizes():
    small = {"sessions": 10, "heap_kb": 30_000, "rss_kb": 200_000, "threads": 60}
    big = {"sessions": 1010, "heap_kb": 94_800, "rss_kb": 300_000, "threads": 1060}
    assert held.per_session_added(small, big) == {"heap_kb": 64.8, "rss_kb": 100.0, "threads": 1.0}


def rows(*spans):
    return [{"timeStamp": str(start), "elapsed": str(elapsed)} for start, elapsed in spans]


def poll(t, jmeter_cpu, server_cpu, kinds=None):
    return (t, jmeter_cpu, server_cpu, kinds or {"connect": (2, 0, jmeter_cpu)})


def test_the_connects_window_runs_from_the_first_start_to_the_last_connected():
    ok = rows((10_000, 100), (10_500, 300), (11_000, 200), (11_800, 200))  # ends 10.1, 10.8, 11.2, 12.0 s
    polls = [poll(t / 4, t / 4 * 0.5, t / 4 * 0.25) for t in range(36, 60)]  # 9.0 .. 14.75 s; JMeter half a core
    figures = connects.connect_window(ok, polls)
    assert figures["per_s"] == pytest.approx(4 / 2.0)
    assert figures["p50_ms"] == 200
    # polls 9.75 .. 12.25 s inside: 2.5 s x 0.5 cores / 4 sessions
    assert figures["cpu_us"] == pytest.approx(2.5 * 0.5 / 4 * 1e6)
    assert figures["server_cpu_us"] == pytest.approx(2.5 * 0.25 / 4 * 1e6)
    # the second half: polls from the median end (11.2 s) on, over the later 2 sessions
    assert figures["cpu_us_second_half"] == pytest.approx(1.0 * 0.5 / 2 * 1e6)
    # held: polls from 13.0 s on (8 of them), per session and second
    assert figures["held_cpu_us_per_session_s"] == pytest.approx(0.5 / 4 * 1e6)
    assert figures["cpu_us_by_kind"] == {"connect": round(2.5 * 0.5 / 4 * 1e6)}


def test_the_connects_window_says_nothing_of_one_session_or_none():
    assert connects.connect_window(rows((10_000, 100)), [poll(10.0, 1.0, 1.0)]) == {}
    assert connects.connect_window([], []) == {}


def test_latency_percentiles_are_nearest_rank():
    assert closed.p50_p99(list(range(1, 201))) == {"p50_ms": 101, "p99_ms": 199}
    assert closed.p50_p99([3, 1, 2]) == {"p50_ms": 2, "p99_ms": 3}
    assert closed.p50_p99([]) == {}


def test_a_connect_value_names_its_java_request_floors_client_and_arguments():
    assert connects.java_request_floor("jfloor:8") == ("tomcat", False)
    assert connects.java_request_floor("sfloor-args:8") == ("spring", True)
    assert connects.java_request_floor("cfloor:8") == ("codec", False)
    assert connects.java_request_floor("cfloor-args:32") == ("codec", True)
    # ours, its variants and the floors outside JMeter are no Java Request floor
    for value in ("8", "8:old", "floor:8", "lean:8", "cfloor", "xfloor:8"):
        assert connects.java_request_floor(value) is None


def test_a_many_rate_side_names_its_rate_floors_mode_and_threads():
    assert floors.rate_floor("floor-2x1000") == ("spring", 2)
    assert floors.rate_floor("codecfloor-2x1000") == ("codec", 2)
    assert floors.rate_floor("codecfloor-20x100:old") == ("codec", 20)
    for side in ("ours-2x1000", "ours-2x1000:K", "incumbent", "incumbent:deflate", "floor-tomcat"):
        assert floors.rate_floor(side) is None


def test_the_connect_floor_keeps_k_connects_under_way_per_thread_of_ours():
    # floor:8 beside ours on 15 threads: 8 per thread, 120 in all, as connect.jmx's connectsInFlight=8 keeps them
    args = floors.connect_floor_args("ws://127.0.0.1:15674/ws", "guest", "guest", 15000, 8, 15, "10000")
    assert args == ["ws://127.0.0.1:15674/ws", "guest", "guest", "15000", "120", "2", "10000"]


def test_a_lean_side_asks_for_the_plans_heart_beats_or_for_none(monkeypatch):
    monkeypatch.setenv("CONNECT_HEARTBEAT_MS", "10000")
    assert connects.lean_side("lean:64") == (64, "10000,10000")
    assert connects.lean_side("lean-nohb:120") == (120, "0,0")
    monkeypatch.setenv("CONNECT_HEARTBEAT_MS", "0")
    assert connects.lean_side("lean:8") == (8, "0,0")
    for value in ("8", "8:old", "floor:8", "jfloor:8", "lean", "leanx:8"):
        assert connects.lean_side(value) is None


def test_the_connect_floors_cpu_by_kind_is_per_session_over_the_whole_and_the_second_half():
    started = {"floor-connect": (8, 0, 1.0), "stomp-io": (2, 0, 0.5)}
    halfway = {"floor-connect": (8, 0, 2.0), "stomp-io": (2, 0, 1.5)}
    done = {"floor-connect": (8, 0, 4.0), "stomp-io": (2, 0, 2.5), "floor-heartbeat": (1, 0, 0.1)}
    figures = floors.connect_floor_by_kind(started, halfway, done, connected=999, users=1001)
    # the whole per session connected; the second half over the 501 sessions after the first 500
    assert figures["cpu_us_by_kind"] == {"floor-connect": 3003, "stomp-io": 2002, "floor-heartbeat": 100}
    assert figures["cpu_us_by_kind_second_half"] == {"floor-connect": 3992, "stomp-io": 1996, "floor-heartbeat": 200}
    assert "cpu_us_by_kind_second_half" not in floors.connect_floor_by_kind(started, None, done, 999, 1001)


def test_a_held_side_names_its_floors_client():
    assert held.held_floor("floor-held") == "spring"
    assert held.held_floor("floor-held:args") == "spring"
    assert held.held_floor("cfloor-held") == "codec"
    assert held.held_floor("cfloor-held:args") == "codec"
    for side in ("ours", "ours:before", "incumbent", "cfloor:8", "floor-closed"):
        assert held.held_floor(side) is None
