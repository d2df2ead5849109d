/**
 * The public face of main/core/sign-in/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { createAuth } from './auth';
export { parseAuthorisationResponse } from './authorisation-response';
export type { OAuthCallbackParams } from './authorisation-response';
export { createCloudClient } from './cloud-client';
export type { AccessTokenCaller, CloudClient } from './cloud-client';
export { APP_SCHEME, OAUTH_REDIRECT_URI, findDeepLinkInArgv, parseDeepLink } from './deep-link';
export type { DeepLinkAction } from './deep-link';
export { createNoticeBoard } from './notices';
export { createOAuthFlow } from './oauth-flow';
export { createSessionState } from './session-state';
export type { SessionListener } from './session-state';
export { createTokenEndpoint } from './token-endpoint';
export { createTokenVault } from './token-vault';
