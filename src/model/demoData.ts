/**
 * The small demo data set loaded into the embedded DynamoDB Local by
 * `npm start`: students, courses and enrollments (with their denormalized
 * copies and counters), a customer with orders, a product with parts.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '../dynamo/batchWrite.js';
import type { Item } from '../dynamo/batchGet.js';
import {
  catalogCounterItems,
  courseItem,
  customerItem,
  enrollmentItem,
  orderItem,
  partItem,
  productItem,
  studentItem,
} from './items.js';

const students = [
  { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: '2', name: 'Alan Turing', email: 'alan@example.com' },
  { id: '3', name: 'Grace Hopper', email: 'grace@example.com' },
  { id: '4', name: 'Edsger Dijkstra', email: null },
];
const courses = [
  { id: 'A', title: 'Algorithms' },
  { id: 'B', title: 'Databases' },
  { id: 'C', title: 'Compilers' },
];
const enrollments: [string, string][] = [
  ['1', 'A'], ['1', 'B'], ['1', 'C'],
  ['2', 'A'], ['2', 'C'],
  ['3', 'B'], ['3', 'C'],
  ['4', 'A'],
];

export function demoItems(): Item[] {
  const items: Item[] = [];
  const day = (n: number) => new Date(Date.UTC(2026, 0, 5 + n, 9)).toISOString();
  for (const s of students) {
    items.push(studentItem({ ...s, courseCount: enrollments.filter(([sid]) => sid === s.id).length }));
  }
  for (const c of courses) {
    items.push(courseItem({ ...c, studentCount: enrollments.filter(([, cid]) => cid === c.id).length }));
  }
  enrollments.forEach(([sid, cid], i) => {
    const s = students.find((x) => x.id === sid)!;
    const c = courses.find((x) => x.id === cid)!;
    items.push(enrollmentItem({ studentId: sid, courseId: cid, enrolledAt: day(i), courseTitle: c.title, studentName: s.name }));
  });
  const orders = [
    { id: '01JDEMO0000000000000000001', total: 42.5, status: 'DELIVERED' },
    { id: '01JDEMO0000000000000000002', total: 19.99, status: 'SHIPPED' },
    { id: '01JDEMO0000000000000000003', total: 7, status: 'PLACED' },
  ];
  items.push(customerItem({ id: '1', name: 'Acme Corp', email: 'orders@acme.example', orderCount: orders.length }));
  orders.forEach((o, i) => items.push(orderItem({ ...o, customerId: '1', placedAt: day(10 + i) })));
  const parts = [
    { id: 'wheel', name: 'Wheel', quantity: 4 },
    { id: 'frame', name: 'Frame', quantity: 1 },
    { id: 'saddle', name: 'Saddle', quantity: 1 },
  ];
  items.push(productItem({ id: 'bike', name: 'Bicycle', partCount: parts.length }));
  for (const p of parts) items.push(partItem({ ...p, productId: 'bike' }));
  items.push(...catalogCounterItems(items));
  return items;
}

export async function loadDemoData(doc: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const items = demoItems();
  await batchPut(doc, tableName, items);
  return items.length;
}
