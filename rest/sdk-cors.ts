import cors from 'cors';

/**
 * The widget calls from customers' sites, so any origin may reach the SDK routes: the SDK
 * key and each study's allowed origins decide what it may do. No cookies cross.
 */
export const sdkCors = () =>
  cors({ origin: true, credentials: false, methods: ['GET', 'POST'], allowedHeaders: ['content-type', 'x-project-key', 'x-session-id', 'x-part-number'], maxAge: 600 });
