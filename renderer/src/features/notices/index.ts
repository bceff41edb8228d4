export { NoticeTray } from './NoticeTray.tsx';
