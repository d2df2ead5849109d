/**
 * What Import needs of the page to read a file in pieces (docs/security.md, "Hostile archive files"):
 * the file's bytes as the browser reads them, and a turn for the page between pieces.
 */

/** The file's bytes, chunk by chunk; stopping early cancels the read. */
export async function* fileBytes(file: Blob): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel();
  }
}

/**
 * Resolves in a task of its own, queued after what the page has waiting (input, React's commit, a
 * frame that is due). A message rather than a timeout: browsers clamp nested timeouts to 4 ms.
 */
export function pageTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
