%% Savina "counting" (CountingConfig.N = 1_000_000) in Erlang.
%%
%% A producer sends N incr messages to a counter process, then asks for the
%% total and prints it.  It measures one-way message throughput into one
%% mailbox.  As in the Mosaic and CAF versions, the producer is the main
%% process (in Savina it is an actor of its own).
%%
%% Usage: erl -noshell -pa DIR -run counting main [N]

-module(counting).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    N = arg(Args, 1, 1000000),
    Counter = spawn(fun() -> counter(0) end),
    produce(Counter, N),
    Counter ! {total, self()},
    receive
        {total, Count} -> io:format("counting: count=~b~n", [Count])
    end,
    erlang:halt(0).

produce(_, 0) -> ok;
produce(Counter, K) -> Counter ! incr, produce(Counter, K - 1).

counter(Count) ->
    receive
        incr -> counter(Count + 1);
        {total, From} -> From ! {total, Count}
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
