// Package sim simulates rigid bodies of any closed polyhedral shape, convex
// or not, under gravity, with Coulomb friction and restitution, at a fixed
// step, on the contacts of package world.
//
// Every step places each body in a world.World at its pose, moves it to
// where its velocities and gravity would take it (World.Move), marks
// sleeping bodies (World.SetAsleep) and takes the step's contacts from
// world.FeatureContacts: the vertex-face and edge-edge corners of each
// pair's contact region at the start poses, speculative within what the
// step can close between the two bodies plus a base margin per body
// (World.SetMargin). Each contact is the shared record of package contact.
// The solver is Catto's soft step with substeps, as in Box2D v3, with warm
// starting keyed by the contacts' feature ids, restitution, and a position
// pass (non-linear Gauss-Seidel, as in Box2D v2.4) that changes positions
// only. A step in which a pushed body would turn by more than a quarter
// radian runs in halves; after that, or when a body ended farther from its
// predicted place than its margin covered, contacts are found afresh at the
// end poses for a last position pass. Islands of bodies at rest fall
// asleep.
//
// FromScene and Run read and simulate scenes of the collide simulation
// format (package simio); PileScene and ChainScene build the built-in
// scenes. Results do not depend on Options.Workers.
package sim
