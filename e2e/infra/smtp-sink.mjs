// A local SMTP sink for tests: accepts every mail on loopback (no TLS, no auth)
// and prints one JSON line per event on stdout: first {"listening": port}, then
// {"from", "to", "data"} for each mail received (data is the raw RFC 5322 text).
// Usage: node e2e/infra/smtp-sink.mjs [port]   (0 or none: any free port)
import { SMTPServer } from 'smtp-server';

const port = Number(process.argv[2] ?? 0);
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const mail = {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        to: session.envelope.rcptTo.map((r) => r.address),
        data: Buffer.concat(chunks).toString('utf8'),
      };
      process.stdout.write(`${JSON.stringify(mail)}\n`);
      callback();
    });
  },
});
server.on('error', (error) => {
  process.stderr.write(`smtp-sink: ${error.message}\n`);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: server.server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
