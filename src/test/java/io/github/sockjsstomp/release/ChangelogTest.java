package io.github.sockjsstomp.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** CHANGELOG.md in Keep a Changelog's form: a section per version, newest first, the pom's version the newest. */
class ChangelogTest {

    private static final Pattern SECTION =
            Pattern.compile("^## \\[([^\\]]+)\\](?: - (\\d{4}-\\d{2}-\\d{2}|unreleased))?$", Pattern.MULTILINE);

    @Test
    void theNewestSectionIsThePomsVersionAfterUnreleased() throws IOException {
        List<String> versions = versions(Files.readString(Path.of("CHANGELOG.md")));
        assertThat(versions).first().isEqualTo("Unreleased");
        assertThat(versions.get(1)).isEqualTo(PomVersion.of(Path.of("pom.xml")));
    }

    @Test
    void versionsComeNewestFirstEachWithADateOrUnreleasedAndALink() throws IOException {
        String changelog = Files.readString(Path.of("CHANGELOG.md"));
        List<String> released =
                versions(changelog).subList(1, versions(changelog).size());
        assertThat(released)
                .isSortedAccordingTo(Comparator.comparing(ChangelogTest::numbers, ChangelogTest::compare)
                        .reversed());
        Matcher section = SECTION.matcher(changelog);
        while (section.find()) {
            if (!section.group(1).equals("Unreleased")) {
                assertThat(section.group(2)).as(section.group()).isNotNull();
            }
            assertThat(changelog).contains("\n[" + section.group(1) + "]: https://");
        }
    }

    private static List<String> versions(String changelog) {
        List<String> versions = new ArrayList<>();
        Matcher section = SECTION.matcher(changelog);
        while (section.find()) {
            versions.add(section.group(1));
        }
        return versions;
    }

    private static int[] numbers(String version) {
        return Pattern.compile("[.-]")
                .splitAsStream(version)
                .takeWhile(part -> part.chars().allMatch(Character::isDigit))
                .mapToInt(Integer::parseInt)
                .toArray();
    }

    private static int compare(int[] a, int[] b) {
        return Arrays.compare(a, b);
    }
}
