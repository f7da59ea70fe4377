%% Savina "fibonacci" (FibonacciConfig.N = 25) in Erlang.
%%
%% A process asked for fib(n) answers 1 when n =< 2; otherwise it spawns two
%% children, asks them for fib(n-1) and fib(n-2), adds their answers and
%% sends the sum to its parent.  fib(25) = 75025 takes 150049 processes, so
%% this measures process creation as much as messaging.  The root's parent
%% is the main process, which prints the result and halts.
%%
%% Usage: erl -noshell -pa DIR -run fib main [N]

-module(fib).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    N = arg(Args, 1, 25),
    Main = self(),
    Root = spawn(fun() -> fib(Main) end),
    Root ! {request, N},
    receive
        {response, V} -> io:format("fib: n=~b result=~b~n", [N, V])
    end,
    erlang:halt(0).

fib(Parent) ->
    receive
        {request, N} when N =< 2 ->
            Parent ! {response, 1};
        {request, N} ->
            Self = self(),
            spawn(fun() -> fib(Self) end) ! {request, N - 1},
            spawn(fun() -> fib(Self) end) ! {request, N - 2},
            collect(Parent, 0, 0)
    end.

collect(Parent, Sum, 2) -> Parent ! {response, Sum};
collect(Parent, Sum, Received) ->
    receive
        {response, V} -> collect(Parent, Sum + V, Received + 1)
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
