%% bench/distributed/pingpong.erl — a cross-node round trip in Erlang
%% distribution, the peer of pingpong.mos under mpirun: two Erlang nodes
%% (two VMs, started with `erl -sname`) on this machine, connected through
%% epmd and a TCP connection, and one process on each ping-ponging N
%% messages.  This is what a user who wants actors on several machines
%% picks today.
%%
%% The Pong node is a bare VM (bench/run-distributed.sh starts it first,
%% with the same cookie and code path); the Ping node runs main/1, which
%% connects to it (retrying while it boots), spawns the Pong process there,
%% and then, in its own process, sends {ping, self(), I} for I = 1 … N, each
%% after the answer {pong, I} to the one before, adding up the answers: the
%% check value N(N+1)/2 is the one every version prints.  The timed section
%% starts once the connection is up, so VM boot and connection set-up are
%% outside it, as MPI_Init is for the C peer.  At the end it halts the Pong
%% node, then its own.
%%
%% Usage: erl -sname PING -setcookie C -noshell -pa DIR \
%%            -run pingpong main PONG_SHORT_NAME [N]      (default 100000)
%% where the Pong node was started as `erl -sname PONG_SHORT_NAME
%% -setcookie C -noshell -pa DIR` on the same host.  Prints:
%%   pingpong: pings=N sum=S
%%   pingpong seconds: T (U us per round trip)

-module(pingpong).
-export([main/1, pong/0]).

main([PongName | Rest]) ->
    N = case Rest of [A | _] -> list_to_integer(A); [] -> 100000 end,
    %% The Pong node runs on this host: its full name takes our host part.
    [_, Host] = string:split(atom_to_list(node()), "@"),
    PongNode = list_to_atom(PongName ++ "@" ++ Host),
    connect(PongNode, 200),
    Pong = spawn(PongNode, ?MODULE, pong, []),
    T0 = erlang:monotonic_time(microsecond),
    Sum = ping(Pong, 1, N, 0),
    T = (erlang:monotonic_time(microsecond) - T0) / 1.0e6,
    io:format("pingpong: pings=~b sum=~b~n", [N, Sum]),
    io:format("pingpong seconds: ~.6f (~.3f us per round trip)~n",
              [T, if N > 0 -> T / N * 1.0e6; true -> 0.0 end]),
    %% Halt the other VM and wait until its connection drops (a call would
    %% never get its answer, and halting at once could lose the cast).
    monitor_node(PongNode, true),
    rpc:cast(PongNode, erlang, halt, [0]),
    receive {nodedown, PongNode} -> ok after 5000 -> ok end,
    erlang:halt(0).

%% The Pong node may still be booting: try every 50 ms, 200 times (10 s),
%% then give up with status 1 (the script reports the row as n/a).
connect(Node, 0) ->
    io:format(standard_error, "pingpong: cannot reach ~s~n", [Node]),
    erlang:halt(1);
connect(Node, Tries) ->
    case net_adm:ping(Node) of
        pong -> ok;
        pang -> timer:sleep(50), connect(Node, Tries - 1)
    end.

ping(_Pong, I, N, Sum) when I > N -> Sum;
ping(Pong, I, N, Sum) ->
    Pong ! {ping, self(), I},
    receive
        {pong, V} -> ping(Pong, I + 1, N, Sum + V)
    end.

pong() ->
    receive
        {ping, From, I} -> From ! {pong, I}, pong()
    end.
