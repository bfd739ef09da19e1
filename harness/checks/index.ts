export * from './verdict';
export * from './status';
export * from './body';
export * from './values';
export * from './members';
export * from './echo';
export * from './records';
export * from './request';
