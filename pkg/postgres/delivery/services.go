// Package delivery is the store's delivery area: in-app notifications, notification
// rules, webhooks, chat destinations, e-mail settings, the delivery log and the store the
// delivery workers read from. It builds on the kit (package postgres) and never imports
// another area.
package delivery

import "github.com/assay-dev/assay/pkg/postgres"

// NotificationService implements assess.NotificationService.
type NotificationService struct{ db *postgres.DB }

// NewNotificationService returns the service on db.
func NewNotificationService(db *postgres.DB) *NotificationService { return &NotificationService{db} }

// RuleService implements assess.RuleService.
type RuleService struct{ db *postgres.DB }

// NewRuleService returns the service on db.
func NewRuleService(db *postgres.DB) *RuleService { return &RuleService{db} }

// WebhookService implements assess.WebhookService.
type WebhookService struct{ db *postgres.DB }

// NewWebhookService returns the service on db.
func NewWebhookService(db *postgres.DB) *WebhookService { return &WebhookService{db} }

// ChatService implements assess.ChatService.
type ChatService struct{ db *postgres.DB }

// NewChatService returns the service on db.
func NewChatService(db *postgres.DB) *ChatService { return &ChatService{db} }

// DeliveryLogService implements assess.DeliveryLogService.
type DeliveryLogService struct{ db *postgres.DB }

// NewDeliveryLogService returns the service on db.
func NewDeliveryLogService(db *postgres.DB) *DeliveryLogService { return &DeliveryLogService{db} }

// EmailService implements assess.EmailService.
type EmailService struct{ db *postgres.DB }

// NewEmailService returns the service on db.
func NewEmailService(db *postgres.DB) *EmailService { return &EmailService{db} }

// DeliveryStore implements assess.DeliveryStore for the delivery workers.
type DeliveryStore struct{ db *postgres.DB }

// NewDeliveryStore returns the service on db.
func NewDeliveryStore(db *postgres.DB) *DeliveryStore { return &DeliveryStore{db} }
