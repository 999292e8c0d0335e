export * from './auth';
export * from './mail';
export * from './organisation';
export * from './users';
