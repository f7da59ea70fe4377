%% Savina "ping-pong" (PingPongConfig.N = 40000) in Erlang.
%%
%% Two processes bounce a message back and forth N times: Ping sends
%% {ping, self()} to Pong, Pong answers pong, and Ping sends the next ping
%% until N have been answered.  It measures one message round trip when
%% nothing can run in parallel.  The same protocol is written in
%% ../pingpong.mos and ../caf/pingpong.cpp; all three print the same line.
%% The main process starts Ping, waits for its result, prints it and halts
%% the VM (which also ends Pong).
%%
%% Usage: erl -noshell -pa DIR -run pingpong main [N]

-module(pingpong).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    N = arg(Args, 1, 40000),
    Main = self(),
    Pong = spawn(fun pong/0),
    Ping = spawn(fun() -> ping_wait(Pong, N, Main) end),
    Ping ! start,
    receive
        {result, Received} -> io:format("pingpong: pings=~b~n", [Received])
    end,
    erlang:halt(0).

pong() ->
    receive
        {ping, From} -> From ! pong, pong()
    end.

ping_wait(Pong, N, Main) ->
    receive
        start when N > 0 ->
            Pong ! {ping, self()},
            ping(Pong, N - 1, 0, Main);
        start ->
            Main ! {result, 0}
    end.

%% Left: pings not sent yet; Received: pongs received so far.
ping(Pong, Left, Received, Main) ->
    receive
        pong when Left > 0 ->
            Pong ! {ping, self()},
            ping(Pong, Left - 1, Received + 1, Main);
        pong ->
            Main ! {result, Received + 1}
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
