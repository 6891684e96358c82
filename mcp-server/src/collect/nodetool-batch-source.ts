/**
 * Java source of the one-JVM nodetool runner (compiled once with javac into the cache, see
 * nodetool-batch.ts). A nodetool call spends most of its time starting a JVM and loading Cassandra's
 * classes; running every subcommand for a node in one JVM pays that once.
 *
 * Protocol: argv[0] is a random marker; every later occurrence of the marker starts one nodetool command
 * (its full argv follows). For command i it prints, on stdout:
 *   MARKER out i \n <stdout> \n MARKER err i \n <stderr> \n MARKER end i <exit status> <ms> \n
 * NodeTool.execute() is the entry point nodetool's main() uses (4.0+). On a failed JMX connection nodetool
 * calls System.exit(1) itself: a shutdown hook then prints that command's section with the status "exit"
 * and the caller runs the commands after it in a new JVM.
 */
export const NODETOOL_BATCH_CLASS = 'CqlTunerNodetoolBatch';

export const NODETOOL_BATCH_JAVA = String.raw`
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.tools.INodeProbeFactory;
import org.apache.cassandra.tools.NodeProbe;
import org.apache.cassandra.tools.NodeTool;
import org.apache.cassandra.tools.Output;

public final class ${NODETOOL_BATCH_CLASS} {
  // NodeTool's own factory is package-private; this one does the same.
  static final class Probes implements INodeProbeFactory {
    public NodeProbe create(String host, int port) throws IOException { return new NodeProbe(host, port); }
    public NodeProbe create(String host, int port, String user, String pass) throws IOException { return new NodeProbe(host, port, user, pass); }
  }

  static volatile int current = -1;
  static volatile long started;
  static volatile ByteArrayOutputStream curOut = new ByteArrayOutputStream();
  static volatile ByteArrayOutputStream curErr = new ByteArrayOutputStream();

  static void put(PrintStream to, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    to.write(b, 0, b.length);
  }

  static synchronized void section(PrintStream to, String marker, int i, byte[] out, byte[] err, String status, long ms) {
    put(to, marker + " out " + i + "\n");
    to.write(out, 0, out.length);
    put(to, "\n" + marker + " err " + i + "\n");
    to.write(err, 0, err.length);
    put(to, "\n" + marker + " end " + i + " " + status + " " + ms + "\n");
    to.flush();
  }

  public static void main(String[] argv) {
    String marker = argv[0];
    List<List<String>> commands = new ArrayList<>();
    for (int i = 1; i < argv.length; i++) {
      if (argv[i].equals(marker)) commands.add(new ArrayList<>());
      else if (!commands.isEmpty()) commands.get(commands.size() - 1).add(argv[i]);
    }
    PrintStream realOut = System.out;
    PrintStream realErr = System.err;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      int i = current;
      if (i >= 0) section(realOut, marker, i, curOut.toByteArray(), curErr.toByteArray(), "exit", (System.nanoTime() - started) / 1_000_000L);
    }));
    for (int i = 0; i < commands.size(); i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
      PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
      long t0 = System.nanoTime();
      curOut = out;
      curErr = err;
      started = t0;
      current = i;
      int status;
      // Some commands print through System.out rather than Output: capture both.
      System.setOut(o);
      System.setErr(e);
      try {
        status = new NodeTool(new Probes(), new Output(o, e)).execute(commands.get(i).toArray(new String[0]));
      } catch (Throwable t) {
        t.printStackTrace(e);
        status = 3;
      } finally {
        System.setOut(realOut);
        System.setErr(realErr);
      }
      current = -1;
      o.flush();
      e.flush();
      section(realOut, marker, i, out.toByteArray(), err.toByteArray(), Integer.toString(status), (System.nanoTime() - t0) / 1_000_000L);
    }
    System.exit(0);
  }
}
`;
