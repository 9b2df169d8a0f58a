/**
 * A thread's users: the virtual users one JMeter thread owns ({@link ThreadUsers}) and what the thread keeps about
 * them: how they connect, paced and several at once, when each may connect again, which goes next, which go silent,
 * how their messages are timed, and how a thread group's users are shared among its threads. The samplers and the
 * senders' loops work through {@link ThreadUsers} and the parts it hands out; the rest stays inside.
 */
package io.github.sockjsstomp.threadusers;
