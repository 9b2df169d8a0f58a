package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.util.List;

/** A server whose own figures can be read: polled by {@link ServerFigures}, on its one thread. */
interface FigureSource {

    /**
     * The figures as they are now; a figure the server does not have is left out.
     *
     * @throws IOException when the server cannot be read this time: the poll writes nothing for this source
     */
    List<Figure> poll() throws IOException;

    /** What it reads, as the user typed it (any password left out). */
    SourceSpec spec();
}
