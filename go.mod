module github.com/collide-go/collide

go 1.26
