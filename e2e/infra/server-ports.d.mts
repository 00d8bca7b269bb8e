/** See server-ports.mjs. */
export function holdServerPorts(): Promise<{ port: number; release: () => Promise<void> }>;
