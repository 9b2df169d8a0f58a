package io.github.sockjsstomp.plans;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;

/**
 * What JMeter's GUI does to a plan between File &gt; Open and File &gt; Save, without a display: load it with
 * {@link SaveService}, pass every element through its GUI component the way {@code JMeterTreeModel.addComponent}
 * does on load ({@code clearGui}, {@code configure}, {@code modifyTestElement}), and save it again. A plan
 * that comes back byte for byte "loads and saves cleanly": opening it in the GUI and saving it changes
 * nothing (the Java Request panel, for instance, drops unknown parameters, reorders them and replaces empty
 * values by the sampler's defaults).
 *
 * <p>Runs on JMeter's own classpath (a subprocess of {@link JMeterPlansIT}, or by hand):
 * <pre>
 * java -Djava.awt.headless=true -cp "target/jmeter/lib/*:target/jmeter/lib/ext/*:target/test-classes" \
 *     io.github.sockjsstomp.plans.PlanRoundTrip target/jmeter target/round-trip jmx/*.jmx
 * </pre>
 * Writes each plan, as the GUI would save it, into the output folder and prints one line per plan:
 * {@code SAME name} or {@code CHANGED name}. Exit status 0 when all are the same, 1 otherwise.
 */
public final class PlanRoundTrip {

    private PlanRoundTrip() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: PlanRoundTrip JMETER_HOME OUTPUT_DIR PLAN.jmx...");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        JMeterUtils.setJMeterHome(home.toString());
        JMeterUtils.loadJMeterProperties(home.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        List<String> changed = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            Path plan = Path.of(args[i]);
            String original = Files.readString(plan, StandardCharsets.UTF_8);
            String saved = roundTrip(plan.toFile());
            Files.writeString(out.resolve(plan.getFileName()), saved, StandardCharsets.UTF_8);
            boolean same = saved.equals(original);
            System.out.println((same ? "SAME " : "CHANGED ") + plan);
            if (!same) {
                changed.add(plan.toString());
            }
        }
        System.exit(changed.isEmpty() ? 0 : 1);
    }

    static String roundTrip(File plan) throws Exception {
        HashTree tree = SaveService.loadTree(plan);
        throughGui(tree);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SaveService.saveTree(tree, bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void throughGui(HashTree tree) throws Exception {
        for (Object key : tree.list()) {
            if (key instanceof TestElement element) {
                JMeterGUIComponent gui = guiFor(element);
                gui.clearGui();
                gui.configure(element);
                gui.modifyTestElement(element);
            }
            throughGui(tree.getTree(key));
        }
    }

    /** As GuiPackage.getGui: the element's guiclass, or a TestBeanGUI for its testclass. */
    private static JMeterGUIComponent guiFor(TestElement element) throws Exception {
        String guiClass = element.getPropertyAsString(TestElement.GUI_CLASS);
        String testClass = element.getPropertyAsString(TestElement.TEST_CLASS);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (guiClass.equals(TestBeanGUI.class.getName())) {
            return new TestBeanGUI(Class.forName(testClass, true, loader));
        }
        return (JMeterGUIComponent)
                Class.forName(guiClass, true, loader).getDeclaredConstructor().newInstance();
    }
}
