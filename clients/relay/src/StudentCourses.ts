/**
 * Relay documents for the gateway: docs/clients.md#relay. An application
 * imports `graphql` from react-relay; relay-compiler only looks for the tag.
 * test/unit/relayCompiler.test.ts compiles them against schema.graphql.
 */
const graphql = String.raw;

/** The page query: a student and the first page of their courses. */
export const StudentCoursesPageQuery = graphql`
  query StudentCoursesPageQuery($id: ID!) {
    ...StudentCoursesPage_query @arguments(id: $id)
  }
`;

/**
 * The paginated connection in a fragment on Query: @refetchable works on
 * Query without the Node interface, so usePaginationFragment can load the
 * next and previous pages (loadNext/loadPrevious) today.
 */
export const StudentCoursesPage = graphql`
  fragment StudentCoursesPage_query on Query
  @refetchable(queryName: "StudentCoursesPagePaginationQuery")
  @argumentDefinitions(id: { type: "ID!" }, count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
    student(id: $id) {
      name
      courses(first: $count, after: $cursor) @connection(key: "StudentCoursesPage_courses") {
        totalCount
        edges {
          enrolledAt
          node {
            id
            title
          }
        }
      }
    }
  }
`;

/**
 * The same connection in a fragment on Student: @refetchable on a type
 * that implements Node makes Relay refetch it with node(id: <its globalId>)
 * (relay.config.json names globalId as the Node interface's id field), so
 * any screen that shows a student can page its courses.
 */
export const StudentCoursesList = graphql`
  fragment StudentCoursesList_student on Student
  @refetchable(queryName: "StudentCoursesListPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
    name
    courses(first: $count, after: $cursor) @connection(key: "StudentCoursesList_courses") {
      edges {
        enrolledAt
        node {
          globalId
          title
        }
      }
    }
  }
`;

/** A query that spreads it: the student's fragment, refetchable by its globalId. */
export const StudentPageQuery = graphql`
  query StudentPageQuery($id: ID!) {
    student(id: $id) {
      ...StudentCoursesList_student
    }
  }
`;
