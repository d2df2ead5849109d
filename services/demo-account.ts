/** The demo account of the reference services: the cloud's user and the developer portal's, as the stack prints it. */
export const DEMO_USER = { _id: 'user-5e1f0c2a9b7d4e3f', email: 'demo@hubdesk.test', password: 'hubdesk-demo', firstname: 'Demo', lastname: 'User' };
