export * from './auth';
export * from './catalogue';
export * from './mail';
export * from './organisation';
export * from './people';
export * from './probes';
export * from './tasks';
export * from './users';
