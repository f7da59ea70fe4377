%% Baseline, not a Savina benchmark: boot the VM, spawn one process, make
%% one round trip to it, print a line and halt.  Its time is the fixed cost
%% included in every other Erlang wall time of the table (see ../startup.mos).
%%
%% Usage: erl -noshell -pa DIR -run startup main

-module(startup).
-export([main/0, main/1]).

main() -> main([]).

main(_Args) ->
    Echo = spawn(fun echo/0),
    Echo ! {echo, self(), 1},
    receive
        {echo, X} -> io:format("startup: ok=~b~n", [X])
    end,
    erlang:halt(0).

echo() ->
    receive
        {echo, From, X} -> From ! {echo, X}
    end.
