/**
 * Example operations of a frontend, typed by `npm run codegen:clients`
 * (clients/codegen.ts). The tests run them through Apollo Client and urql
 * against a gateway (test/integration/clients.test.ts).
 */
import { graphql } from './__generated__/gql.js';

/** A student and one page of their courses, forward: `first`/`after`. */
export const StudentCourses = graphql(`
  query StudentCourses($id: ID!, $first: Int, $after: String) {
    student(id: $id) {
      id
      name
      courses(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          enrolledAt
          node {
            id
            title
          }
        }
      }
    }
  }
`);

/** A course and one page of its students, backward: `last`/`before` (edges still oldest first). */
export const CourseStudents = graphql(`
  query CourseStudents($id: ID!, $last: Int, $before: String) {
    course(id: $id) {
      id
      title
      students(last: $last, before: $before) {
        totalCount
        pageInfo {
          hasPreviousPage
          startCursor
        }
        edges {
          cursor
          enrolledAt
          node {
            id
            name
          }
        }
      }
    }
  }
`);

export const Enroll = graphql(`
  mutation Enroll($studentId: ID!, $courseId: ID!) {
    enroll(studentId: $studentId, courseId: $courseId) {
      enrolledAt
      node {
        id
        title
      }
    }
  }
`);
