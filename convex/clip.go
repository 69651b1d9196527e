package convex

type clipState struct{}
