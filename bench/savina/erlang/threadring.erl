%% Savina "thread ring" (ThreadRingConfig: N = 100 actors, R = 100_000 hops)
%% in Erlang.
%%
%% N processes form a ring; each learns its successor from a link message.
%% A token carrying a countdown starts at process 0 with R and is passed on,
%% one less each hop, until it reaches 0; the holder then reports the number
%% of hops and its index.  Only one message is in flight at a time, so this
%% measures the cost of waking a different process for every message.
%%
%% Usage: erl -noshell -pa DIR -run threadring main [N [R]]

-module(threadring).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    N = arg(Args, 1, 100),
    R = arg(Args, 2, 100000),
    Main = self(),
    Ring = [spawn(fun() -> unlinked(Id, Main) end) || Id <- lists:seq(0, N - 1)],
    Nexts = tl(Ring) ++ [hd(Ring)],
    lists:foreach(fun({P, Next}) -> P ! {link, Next} end, lists:zip(Ring, Nexts)),
    hd(Ring) ! {token, R, 0},
    receive
        {result, Hops, Last} ->
            io:format("threadring: hops=~b last=~b~n", [Hops, Last])
    end,
    erlang:halt(0).

unlinked(Id, Main) ->
    receive
        {link, Next} -> member(Id, Next, Main)
    end.

member(Id, Next, Main) ->
    receive
        {token, 0, Hops} ->
            Main ! {result, Hops, Id};
        {token, Left, Hops} ->
            Next ! {token, Left - 1, Hops + 1},
            member(Id, Next, Main)
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
