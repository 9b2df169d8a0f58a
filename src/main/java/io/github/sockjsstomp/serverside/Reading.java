package io.github.sockjsstomp.serverside;

/**
 * One reading of a figure, with what the generator counted at it: the sessions it held (a memory figure) or the
 * messages it had sent (a CPU time), as its row of the same poll round, written just before, said.
 */
record Reading(long epochMillis, double value, long count) {}
