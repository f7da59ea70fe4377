%% Savina "chameneos" (ChameneosConfig: 100 chameneos, 200_000 meetings) in
%% Erlang.
%%
%% A mall process pairs up chameneos.  Each chameneo starts by sending
%% {meet, self(), Colour} to the mall.  The mall keeps one waiting
%% chameneo; when a second arrives it forwards that request to the waiting
%% one and counts a meeting.  The met chameneo takes the complement colour,
%% tells its partner with {change, Colour}, and both go back to the mall.
%% After the last meeting the mall answers every request with exit; each
%% chameneo then reports its number of meetings, and the mall sends the sum
%% (always twice the number of meetings) to the main process, which prints
%% it.  Colours: 0 red, 1 yellow, 2 blue, 3 faded.
%%
%% Usage: erl -noshell -pa DIR -run chameneos main [CHAMENEOS [MEETINGS]]

-module(chameneos).
-export([main/0, main/1]).

main() -> main([]).

main(Args) ->
    C = arg(Args, 1, 100),
    M = arg(Args, 2, 200000),
    Main = self(),
    spawn(fun() -> mall_start(C, M, Main) end),
    receive
        {result, Sum} ->
            io:format("chameneos: chameneos=~b meetings=~b sum=~b~n", [C, M, Sum])
    end,
    erlang:halt(0).

complement(A, A) -> A;
complement(A, B) -> 3 - A - B.

mall_start(C, M, Main) ->
    Mall = self(),
    [spawn(fun() -> chameneo_start(Mall, I rem 3) end) || I <- lists:seq(0, C - 1)],
    mall(M, none, 0, 0, C, Main).

%% Left: meetings still to arrange.
mall(Left, Waiting, Faded, Sum, C, Main) ->
    receive
        {meet, Ch, _Colour} when Left == 0 ->
            Ch ! exit,
            mall(Left, Waiting, Faded, Sum, C, Main);
        {meet, Ch, _Colour} when Waiting == none ->
            mall(Left, Ch, Faded, Sum, C, Main);
        {meet, Ch, Colour} ->
            Waiting ! {meet, Ch, Colour},
            mall(Left - 1, none, Faded, Sum, C, Main);
        {faded, Count} when Faded + 1 == C ->
            Main ! {result, Sum + Count};
        {faded, Count} ->
            mall(Left, Waiting, Faded + 1, Sum + Count, C, Main)
    end.

chameneo_start(Mall, Colour) ->
    Mall ! {meet, self(), Colour},
    chameneo(Mall, Colour, 0).

chameneo(Mall, Colour, Meetings) ->
    receive
        {meet, Other, OtherColour} ->
            New = complement(Colour, OtherColour),
            Other ! {change, New},
            Mall ! {meet, self(), New},
            chameneo(Mall, New, Meetings + 1);
        {change, New} ->
            Mall ! {meet, self(), New},
            chameneo(Mall, New, Meetings + 1);
        exit ->
            Mall ! {faded, Meetings}
    end.

arg(Args, I, _Default) when length(Args) >= I -> list_to_integer(lists:nth(I, Args));
arg(_, _, Default) -> Default.
