package io.memorychain.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay to a local port that cuts its first connection once the answer has passed {@code cutAfter} (a regex over
 * the bytes read as Latin-1): what came before the match's end is forwarded, the rest is not, and both sockets close as
 * a network failure would. Later connections are relayed whole. For a test that a client resumes a dropped stream.
 */
final class CuttingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final Pattern cutAfter;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger cuts = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    CuttingProxy(int targetPort, Pattern cutAfter) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.cutAfter = cutAfter;
        this.acceptor = new Thread(this::accept, "cutting-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    /** Connections cut so far. */
    int cuts() {
        return cuts.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                boolean cut = connections.incrementAndGet() == 1;
                pump(client.getInputStream(), server.getOutputStream(), null, client, server);
                pump(server.getInputStream(), client.getOutputStream(), cut ? cutAfter : null, client, server);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(InputStream in, OutputStream out, Pattern cut, Socket a, Socket b) {
        Thread t = new Thread(
                () -> {
                    ByteArrayOutputStream seen = new ByteArrayOutputStream();
                    byte[] buf = new byte[8192];
                    try {
                        int n;
                        while ((n = in.read(buf)) >= 0) {
                            if (cut != null) {
                                int before = seen.size();
                                seen.write(buf, 0, n);
                                Matcher m = cut.matcher(seen.toString(StandardCharsets.ISO_8859_1));
                                if (m.find()) {
                                    out.write(buf, 0, m.end() - before);
                                    out.flush();
                                    cuts.incrementAndGet();
                                    break;
                                }
                            }
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other side closed
                    } finally {
                        closeQuietly(a);
                        closeQuietly(b);
                    }
                },
                "cutting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(CuttingProxy::closeQuietly);
    }
}
