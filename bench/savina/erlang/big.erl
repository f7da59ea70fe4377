%% Savina "big" (BigConfig: W = 120 actors, N = 20_000 pings each) in Erlang.
%%
%% W processes all know each other.  Each sends N pings, one at a time, each
%% to a neighbour chosen by its own pseudo-random generator; the neighbour
%% answers pong, and the next ping goes out when the pong arrives.  When a
%% process has had its N pings answered it tells a sink (and keeps answering
%% other processes' pings); the sink sends the totals to the main process
%% once all W are done.  The generator is Savina's PseudoRandom seeded with
%% the process index: V = (V * 1309 + 13849) band 65535, target = V rem W.
%% Each process also sums its targets, giving a checksum that is the same in
%% every language.
%%
%% Usage: erl -noshell -pa DIR -run big main [W [N]]

-module(big).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    W = arg(Args, 1, 120),
    N = arg(Args, 2, 20000),
    Main = self(),
    Sink = spawn(fun() -> sink(W, 0, 0, Main) end),
    Actors = [spawn(fun() -> unset(Id, N) end) || Id <- lists:seq(0, W - 1)],
    Peers = list_to_tuple(Actors),
    [A ! {setup, Peers, Sink} || A <- Actors],
    [A ! start || A <- Actors],
    receive
        {result, Pings, Checksum} ->
            io:format("big: actors=~b pings=~b checksum=~b~n", [W, Pings, Checksum])
    end,
    erlang:halt(0).

sink(0, Pings, Checksum, Main) -> Main ! {result, Pings, Checksum};
sink(Left, Pings, Checksum, Main) ->
    receive
        {done, P, Sum} -> sink(Left - 1, Pings + P, Checksum + Sum, Main)
    end.

unset(Id, Limit) ->
    receive
        {setup, Peers, Sink} -> loop({Id, Limit, Peers, Sink}, Id, 0, 0)
    end.

%% Rng: generator state; Sent: pings sent so far; Sum: sum of their targets.
loop(S = {Id, Limit, Peers, Sink}, Rng, Sent, Sum) ->
    receive
        start ->
            send_ping(S, Rng, Sent, Sum);
        {ping, From} ->
            element(From + 1, Peers) ! {pong, Id},
            loop(S, Rng, Sent, Sum);
        {pong, _} when Sent == Limit ->
            Sink ! {done, Sent, Sum},
            loop(S, Rng, Sent, Sum);
        {pong, _} ->
            send_ping(S, Rng, Sent, Sum)
    end.

send_ping(S = {Id, _, Peers, _}, Rng, Sent, Sum) ->
    Next = (Rng * 1309 + 13849) band 65535,
    Target = Next rem tuple_size(Peers),
    element(Target + 1, Peers) ! {ping, Id},
    loop(S, Next, Sent + 1, Sum + Target).

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
