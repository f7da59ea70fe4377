%% Savina "fork-join throughput" (ThroughputConfig: A = 60 actors,
%% N = 10_000 messages per actor) in Erlang.
%%
%% The main process sends N rounds of one work message to each of A worker
%% processes.  A worker handles each message with Savina's
%% performComputation(37.2): sin(theta) squared, counted as good when
%% positive.  The main process then asks every worker for its count and
%% prints the sum (A * N).  It measures throughput when many mailboxes are
%% fed at once and the workers run in parallel.
%%
%% Usage: erl -noshell -pa DIR -run fjthrput main [A [N]]

-module(fjthrput).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    A = arg(Args, 1, 60),
    N = arg(Args, 2, 10000),
    Workers = [spawn(fun() -> worker(37.2, 0) end) || _ <- lists:seq(1, A)],
    rounds(Workers, N),
    Total = lists:sum([count(W) || W <- Workers]),
    io:format("fjthrput: actors=~b messages=~b~n", [A, Total]),
    erlang:halt(0).

rounds(_, 0) -> ok;
rounds(Workers, K) -> send_all(Workers), rounds(Workers, K - 1).

send_all([]) -> ok;
send_all([W | Ws]) -> W ! work, send_all(Ws).

count(W) ->
    W ! {count, self()},
    receive
        {count, W, Good} -> Good
    end.

worker(Theta, Good) ->
    receive
        work ->
            S = math:sin(Theta),
            R = S * S,
            if
                R > 0.0 -> worker(Theta, Good + 1);
                true -> worker(Theta, Good)
            end;
        {count, From} ->
            From ! {count, self(), Good}
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
