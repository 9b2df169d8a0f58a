package io.github.sockjsstomp.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;

/** A pom read as XML: the release's files must agree with it (the descriptor, the changelog), and what it publishes is checked. */
public final class PomVersion {

    private PomVersion() {}

    /** The project's own {@code <version>}. */
    public static String of(Path pom) throws IOException {
        return text(pom, "/project/version");
    }

    /** The text at an XPath of a pom, blank where there is none. */
    public static String text(Path pom, String xpath) throws IOException {
        if (!Files.isRegularFile(pom)) {
            throw new IOException("no pom at " + pom.toAbsolutePath());
        }
        try {
            Document document =
                    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
            return XPathFactory.newInstance()
                    .newXPath()
                    .evaluate(xpath, document)
                    .strip();
        } catch (Exception e) {
            throw new IOException("cannot read " + xpath + " of " + pom + ": " + e.getMessage(), e);
        }
    }
}
