// The paths of the account calls (re-exported by account.ts), without the schemas: the web
// app's login page imports them and so stays free of Zod.
export const ACCOUNT_API = {
  register: '/api/iot/v2/registrations',
  sysUserModel: '/iot-cloud-auth/auth/v1/sysUserModel',
  sendMail: '/iot-cloud-auth/auth/v1/sendMail',
  mailVerify: '/iot-cloud-auth/auth/v1/mailVerify',
  forgot: '/iot-cloud-auth/auth/v1/forgot',
  ssoConfig: '/api/iot/v2/sso/config',
  oauth: '/iot-cloud-auth/auth/v1/oauth',
  oauthCallback: '/iot-cloud-auth/auth/v1/oauth/callback',
  bindUser: '/api/iot/v2/sso/auth/bindUser',
  /** POST (signed in) → { url }: the provider's sign-in again, for an electronic signature. */
  ssoReauth: '/api/iot/v2/sso/reauth',
  /** The console page the provider's answer to a re-authentication lands on (proof or error in the fragment). */
  ssoReauthDone: '/view/login/reauthDone',
} as const;

/** The BroadcastChannel on which the re-authentication window hands its answer to the console's signature dialog. */
export const SSO_REAUTH_MESSAGE = 'iotc-sso-reauth';
