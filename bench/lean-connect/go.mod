module github.com/sockjsstomp/bench/lean-connect

go 1.22

require github.com/gorilla/websocket v1.5.3 // indirect
